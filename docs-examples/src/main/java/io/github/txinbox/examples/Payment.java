package io.github.txinbox.examples;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import java.math.BigDecimal;
import java.util.UUID;

/** A payment {@link PaymentResource} made. */
@Entity
public class Payment {

    @Id
    private String id;

    private BigDecimal amount;

    protected Payment() {
    }

    /**
     * A new payment.
     *
     * @param amount the amount
     */
    public Payment(BigDecimal amount) {
        this.id = UUID.randomUUID().toString();
        this.amount = amount;
    }

    /**
     * Returns its id.
     *
     * @return the id
     */
    public String getId() {
        return id;
    }

    /**
     * Returns its amount.
     *
     * @return the amount
     */
    public BigDecimal getAmount() {
        return amount;
    }
}
