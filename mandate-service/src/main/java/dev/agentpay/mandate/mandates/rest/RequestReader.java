package dev.agentpay.mandate.mandates.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * Binds the request records of {@link MandateApi} with the framework's mapper (its reading rules:
 * {@code ApiJson}) from the body decoded as UTF-8 text, as every mandate body was read before typed binding:
 * Jackson's byte-level parser refuses an escape that leaves a surrogate unpaired in a field name
 * ({@code {"\udbff": 1}} inside {@code terms}), which JavaScript's {@code JSON.parse} accepts and the
 * canonical vectors sign; from text it is read as JavaScript reads it. Invalid UTF-8 decodes to U+FFFD.
 * A blank body binds no record ({@code null}: {@code @NotNull} refuses it where a body is required).
 */
@Provider
@Consumes(MediaType.APPLICATION_JSON)
public class RequestReader implements MessageBodyReader<Object> {

    @Inject
    ObjectMapper mapper;

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type.isRecord() && type.getEnclosingClass() == MandateApi.class;
    }

    @Override
    public Object readFrom(Class<Object> type, Type genericType, Annotation[] annotations, MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders, InputStream entityStream) throws IOException {
        String text = new String(entityStream.readAllBytes(), StandardCharsets.UTF_8);
        return text.isBlank() ? null : mapper.readerFor(type).readValue(text);
    }
}
