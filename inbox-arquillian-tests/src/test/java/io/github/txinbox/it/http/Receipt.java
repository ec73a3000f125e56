package io.github.txinbox.it.http;

/** What creating an order answers, written as JSON by the server's own JSON-B. */
public class Receipt {

    private String orderId;
    private String invoiceId;

    public Receipt() {
    }

    public Receipt(String orderId, String invoiceId) {
        this.orderId = orderId;
        this.invoiceId = invoiceId;
    }

    public String getOrderId() {
        return orderId;
    }

    public void setOrderId(String orderId) {
        this.orderId = orderId;
    }

    public String getInvoiceId() {
        return invoiceId;
    }

    public void setInvoiceId(String invoiceId) {
        this.invoiceId = invoiceId;
    }
}
