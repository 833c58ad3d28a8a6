package dev.agentpay.commons.sql;

import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Row mapping for the repositories: one place for turning a result into domain values. */
public final class Rows {

    private Rows() {
    }

    /** Every row mapped, in result order. */
    public static <T> List<T> list(RowSet<Row> rs, Function<Row, T> map) {
        List<T> out = new ArrayList<>(rs.size());
        for (Row r : rs) {
            out.add(map.apply(r));
        }
        return out;
    }

    /** The first row mapped, or null for an empty result. */
    public static <T> T firstOrNull(RowSet<Row> rs, Function<Row, T> map) {
        return rs.size() == 0 ? null : map.apply(rs.iterator().next());
    }
}
