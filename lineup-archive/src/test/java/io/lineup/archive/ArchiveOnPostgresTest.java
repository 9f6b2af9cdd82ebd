package io.lineup.archive;

import io.lineup.testing.TestDatabase;

/** {@link ArchiveContractTest} on the machine's PostgreSQL, in a schema of its own. */
class ArchiveOnPostgresTest extends ArchiveContractTest {
  @Override
  TestDatabase aDatabase() {
    return TestDatabase.postgres();
  }
}
