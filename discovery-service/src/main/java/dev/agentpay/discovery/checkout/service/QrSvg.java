package dev.agentpay.discovery.checkout.service;

import io.nayuki.qrcodegen.QrCode;

/** A QR code as one SVG path (Nayuki's QR Code generator), drawn on the server so the page needs no script for it. */
public final class QrSvg {

    private QrSvg() {
    }

    /** The SVG markup of {@code text} at error correction level M with a 4-module quiet zone; {@code null} text: {@code null}. */
    public static String of(String text, String label) {
        if (text == null) {
            return null;
        }
        QrCode qr = QrCode.encodeText(text, QrCode.Ecc.MEDIUM);
        int border = 4;
        int size = qr.size + border * 2;
        // one rectangle per horizontal run of dark modules (a third of the bytes of one square per module)
        StringBuilder path = new StringBuilder(qr.size * qr.size * 3);
        for (int y = 0; y < qr.size; y++) {
            int x = 0;
            while (x < qr.size) {
                if (!qr.getModule(x, y)) {
                    x++;
                    continue;
                }
                int run = 1;
                while (x + run < qr.size && qr.getModule(x + run, y)) {
                    run++;
                }
                path.append('M').append(x + border).append(',').append(y + border).append('h').append(run).append("v1h-").append(run).append('z');
                x += run;
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + size + " " + size
                + "\" role=\"img\" aria-label=\"" + escape(label) + "\" shape-rendering=\"crispEdges\">"
                + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/><path d=\"" + path + "\" fill=\"#000000\"/></svg>";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
