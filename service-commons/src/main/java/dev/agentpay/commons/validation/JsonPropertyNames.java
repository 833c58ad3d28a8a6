package dev.agentpay.commons.validation;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.hibernate.validator.ValidatorFactoryCustomizer;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.Field;
import org.hibernate.validator.BaseHibernateValidatorConfiguration;
import org.hibernate.validator.spi.nodenameprovider.JavaBeanProperty;
import org.hibernate.validator.spi.nodenameprovider.Property;
import org.hibernate.validator.spi.nodenameprovider.PropertyNodeNameProvider;

/**
 * Names a Bean Validation property path by the JSON field a client sent ({@code triggered_by}), not by the
 * Java component ({@code triggeredBy}), so a refusal names the field as the API document spells it.
 * Hibernate Validator's {@code PropertyNodeNameProvider} is the documented hook; the name comes from the
 * component's {@link JsonProperty}, the Java name otherwise.
 */
@ApplicationScoped
public class JsonPropertyNames implements ValidatorFactoryCustomizer, PropertyNodeNameProvider {

    @Override
    public void customize(BaseHibernateValidatorConfiguration<?> configuration) {
        configuration.propertyNodeNameProvider(this);
    }

    @Override
    public String getName(Property property) {
        if (property instanceof JavaBeanProperty bean) {
            return jsonName(bean.getDeclaringClass(), property.getName());
        }
        return property.getName();
    }

    static String jsonName(Class<?> type, String javaName) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(javaName);
                JsonProperty p = f.getAnnotation(JsonProperty.class);
                return p != null && !p.value().isEmpty() ? p.value() : javaName;
            } catch (NoSuchFieldException e) {
                // declared higher up
            }
        }
        return javaName;
    }
}
