/**
 * The one consumer loop of Lineup: {@link io.lineup.consumer.ConsumerLoop} leases jobs into free
 * slots, runs each on its own virtual thread, extends its lease while it runs and settles it after,
 * over any {@link io.lineup.consumer.LeaseSource} (the engine's store, the HTTP client).
 */
package io.lineup.consumer;
