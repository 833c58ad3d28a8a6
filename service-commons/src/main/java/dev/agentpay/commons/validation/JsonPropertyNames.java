package dev.agentpay.commons.validation;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.hibernate.validator.ValidatorFactoryCustomizer;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.Field;
import java.util.Optional;
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
                return jsonName(c.getDeclaredField(javaName));
            } catch (NoSuchFieldException e) {
                // declared higher up
            }
        }
        return javaName;
    }

    /** The JSON name a field (a record component's) binds to: its {@link JsonProperty}, the Java name otherwise. */
    public static String jsonName(Field f) {
        JsonProperty p = f.getAnnotation(JsonProperty.class);
        return p != null && !p.value().isEmpty() ? p.value() : f.getName();
    }

    /** The field of {@code type} (or of a superclass) that the JSON field {@code jsonName} binds to. */
    public static Optional<Field> field(Class<?> type, String jsonName) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (jsonName.equals(jsonName(f))) {
                    return Optional.of(f);
                }
            }
        }
        return Optional.empty();
    }
}
