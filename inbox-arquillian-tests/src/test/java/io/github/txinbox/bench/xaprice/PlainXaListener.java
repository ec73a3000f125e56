package io.github.txinbox.bench.xaprice;

import io.github.txinbox.bench.throughput.Invoicing;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Without the inbox, deployed with the XA datasource: what a set-up that relies on XA alone runs. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "test-artemis-rar"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = PlainXaListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class PlainXaListener implements MessageListener {

    /** The queue it consumes. */
    public static final String QUEUE = "price-plain-xa";

    @Inject
    Invoicing invoicing;

    @Override
    public void onMessage(Message message) {
        invoicing.invoice(QUEUE, message);
    }
}
