package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.SharedServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

/** The starters bring up real servers that answer. */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class SharedServersTest {

    @Test
    void postgresAnswersQueries() throws Exception {
        PostgresServer pg = SharedServers.postgres();
        pg.ensureDatabase("probe");
        pg.ensureDatabase("probe"); // idempotent
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl("probe"), PostgresServer.USER, PostgresServer.PASSWORD);
                ResultSet rs = c.createStatement().executeQuery("show server_version_num")) {
            assertThat(rs.next()).isTrue();
            assertThat(Integer.parseInt(rs.getString(1))).isGreaterThanOrEqualTo(180000);
        }
    }

    @Test
    void kafkaHasEveryTopic() throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            assertThat(names).containsAll(Topics.ALL.stream().map(Topics.TopicSpec::name).toList());
        }
    }

    @Test
    void anvilAnswersWithItsChainId() throws Exception {
        AnvilNode node = SharedServers.anvil("probe", 84532);
        var client = java.net.http.HttpClient.newHttpClient();
        var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.rpcUrl()))
                .header("content-type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_chainId\",\"params\":[]}"))
                .build();
        String body = client.send(req, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertThat(body).contains("\"result\":\"0x" + Long.toHexString(84532) + "\"");
    }
}
