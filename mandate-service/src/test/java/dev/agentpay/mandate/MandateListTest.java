package dev.agentpay.mandate;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/mandates}: the partner's own mandates, newest first, by state, page by page; bad parameters are 400. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class MandateListTest {

    @Test
    void listsOnlyTheCallersMandatesNewestFirstFilteredAndPaged() {
        TestPartner owner = Api.newPartner("Lister");
        TestPartner other = Api.newPartner("Other lister");
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(Api.create(owner).id());
        }
        TestMandate signed = Api.signedByBoth(owner);
        created.add(signed.id());
        Api.create(other);
        List<String> newestFirst = new ArrayList<>(created);
        java.util.Collections.reverse(newestFirst);

        JsonPath all = owner.as().get("/v1/mandates").then().statusCode(200).body("success", equalTo(true)).extract().jsonPath();
        List<String> ids = all.getList("data.items.id");
        assertThat(ids).containsExactlyElementsOf(newestFirst);
        assertThat(all.getString("data.nextCursor")).isNull();
        assertThat(all.getList("data.items.transitions")).containsOnlyNulls();

        // by state
        assertThat(owner.as().get("/v1/mandates?state=signed_by_both").then().statusCode(200).extract().jsonPath()
                .getList("data.items.id", String.class)).containsExactly(signed.id());
        assertThat(owner.as().get("/v1/mandates?state=proposed").then().statusCode(200).extract().jsonPath()
                .getList("data.items.id", String.class)).hasSize(5).doesNotContain(signed.id());

        // pages of 2: every mandate once, in order
        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            JsonPath p = owner.as().queryParam("limit", 2).queryParams(cursor == null ? java.util.Map.of() : java.util.Map.of("cursor", cursor))
                    .get("/v1/mandates").then().statusCode(200).extract().jsonPath();
            List<String> page = p.getList("data.items.id");
            assertThat(page.size()).isLessThanOrEqualTo(2);
            paged.addAll(page);
            cursor = p.getString("data.nextCursor");
        } while (cursor != null);
        assertThat(paged).containsExactlyElementsOf(newestFirst);

        // the other partner sees only its own
        assertThat(other.as().get("/v1/mandates").then().statusCode(200).extract().jsonPath().getList("data.items.id"))
                .hasSize(1).doesNotContainAnyElementsOf(created);
    }

    @Test
    void refusesBadParametersAndMissingKeys() {
        TestPartner p = Api.newPartner("Bad lister");
        p.as().get("/v1/mandates?state=archived").then().statusCode(400).body("error.code", equalTo("validation_error"));
        p.as().get("/v1/mandates?limit=abc").then().statusCode(400).body("error.code", equalTo("validation_error"));
        p.as().get("/v1/mandates?limit=0").then().statusCode(400);
        p.as().get("/v1/mandates?limit=101").then().statusCode(400);
        p.as().get("/v1/mandates?cursor=not-a-cursor").then().statusCode(400).body("error.code", equalTo("validation_error"));
        given().get("/v1/mandates").then().statusCode(401).body("error.code", equalTo("unauthorized"));
    }
}
