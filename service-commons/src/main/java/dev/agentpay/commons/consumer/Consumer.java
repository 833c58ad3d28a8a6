package dev.agentpay.commons.consumer;

/**
 * One Kafka consumer of a service: its name (metrics, health, logs, the {@code processed_event} mark)
 * and the dead-letter topic its poison records go to ({@code Topics.deadLetter}).
 */
public record Consumer(String name, String deadLetterTopic) {
}
