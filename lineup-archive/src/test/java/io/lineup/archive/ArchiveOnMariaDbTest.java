package io.lineup.archive;

import io.lineup.testing.TestDatabase;

/**
 * {@link ArchiveContractTest} on the machine's MariaDB (standing in for MySQL), in a database of
 * its own.
 */
class ArchiveOnMariaDbTest extends ArchiveContractTest {
  @Override
  TestDatabase aDatabase() {
    return TestDatabase.mariadb();
  }
}
