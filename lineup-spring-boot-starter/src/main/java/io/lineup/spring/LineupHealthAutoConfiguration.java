package io.lineup.spring;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code lineup} health indicator, when Spring Boot's health support is on the class path; off
 * with {@code management.health.lineup.enabled=false}.
 */
@AutoConfiguration(after = LineupAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({LineupBackend.class, LineupWorkers.class})
@ConditionalOnEnabledHealthIndicator("lineup")
public class LineupHealthAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(name = "lineupHealthIndicator")
  LineupHealthIndicator lineupHealthIndicator(
      LineupBackend backend, LineupWorkers workers, LineupProperties properties) {
    return new LineupHealthIndicator(backend, workers, properties);
  }
}
