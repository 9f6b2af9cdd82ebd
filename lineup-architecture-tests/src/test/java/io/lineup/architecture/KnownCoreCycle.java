package io.lineup.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import io.lineup.core.DeadJob;
import io.lineup.core.DeadPage;
import io.lineup.core.Eta;
import io.lineup.core.EtaEstimator;
import io.lineup.core.InvalidArgumentException;
import io.lineup.core.JobInfo;
import io.lineup.core.JobNotFoundException;
import io.lineup.core.JobState;
import io.lineup.core.LeaseLostException;
import io.lineup.core.LeasedJob;
import io.lineup.core.Leases;
import io.lineup.core.LineupException;
import io.lineup.core.NewJob;
import io.lineup.core.OutboxEntry;
import io.lineup.core.PeekedJob;
import io.lineup.core.PublishResult;
import io.lineup.core.QueueEvent;
import io.lineup.core.QueueName;
import io.lineup.core.RateSlot;
import io.lineup.core.RedisOutOfMemoryException;
import io.lineup.core.RedisServerInfo;
import io.lineup.core.RedisUnavailableException;

/**
 * The one package cycle left, written down so that it can only shrink: the engine's internals
 * ({@code internal.store}, {@code internal.maintenance}) still take and return the API's values and
 * throw its exceptions, while the API's runtime ({@code Lineup}, {@code Leaser}, {@code Worker}...)
 * calls the internals. {@link PackageCyclesTest} ignores exactly these edges: from an internal
 * package to one of the API types listed here. An internal class that starts using any other API
 * type, or a cycle anywhere else, fails the test.
 *
 * <p>The way out, type by type: the store speaks its own terms (queue name text, its own reply
 * records and failure codes) and the API translates at its edge, as the time source and latency
 * listener already could. When a type no longer appears in the internals, it leaves this list; when
 * the list is empty, this class goes.
 */
final class KnownCoreCycle {
  private KnownCoreCycle() {}

  /** The engine's storage layer, the origin of the edges still allowed. */
  static DescribedPredicate<JavaClass> theStorageLayer() {
    return resideInAPackage("io.lineup.core.internal.store..");
  }

  /** The API types the store still uses. */
  static DescribedPredicate<JavaClass> theApiTypesTheStoreStillUses() {
    return belongToAnyOf(
        DeadJob.class,
        DeadPage.class,
        Eta.class,
        EtaEstimator.class,
        InvalidArgumentException.class,
        JobInfo.class,
        JobNotFoundException.class,
        JobState.class,
        LeaseLostException.class,
        LeasedJob.class,
        Leases.class,
        LineupException.class,
        NewJob.class,
        OutboxEntry.class,
        PeekedJob.class,
        PublishResult.class,
        QueueEvent.class,
        QueueName.class,
        RateSlot.class,
        RedisOutOfMemoryException.class,
        RedisServerInfo.class,
        RedisUnavailableException.class);
  }
}
