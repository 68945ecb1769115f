// The system's SQLite: Debian's libsqlite3-dev, Homebrew's sqlite (or the macOS SDK's). The
// store's SQLite driver (ProvisioServer/Store/Database/SQLite) calls its C API, and it is the
// only SQLite in the process, so every connection to a database file shares one set of locks.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call. Turns off double-quoted string
// literals on `db`: "x" is then always an identifier, as in SQLite builds made with
// SQLITE_DQS=0 (the one SQLiteNIO bundled, which the store used before).
static inline int provisio_sqlite3_disable_double_quoted_strings(sqlite3 *db) {
    int status = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (status != SQLITE_OK) return status;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}

// sqlite3_config is variadic too. Turns SQLite's memory statistics off for the process, as
// SQLITE_DEFAULT_MEMSTATUS=0 did in SQLiteNIO's build: with them on (Debian's default) every
// allocation and free takes one global mutex, which all the server's threads then contend for.
// Effective only before sqlite3_initialize (afterwards it answers SQLITE_MISUSE and changes nothing).
static inline int provisio_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
