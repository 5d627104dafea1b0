// The parts of libpq (PostgreSQL's client library, 10 or later) that SessionPostgres uses: one
// blocking connection at a time, statements with text parameters and text results.
//
// libpq is loaded at run time (dlopen of libpq.so.5, the soname every distribution ships), not
// linked: building needs no libpq headers and no -dev package, and a machine without libpq gets a
// clear error from the store instead of a program that does not start. The declarations below
// transcribe libpq's stable ABI (its types under names of our own, its enum values with CLIBPQ_
// before libpq's names); Tests/ABI/pq-abi-check.c compares each of them with the real libpq-fe.h
// in CI.
#ifndef SESSION_SERVICE_CLIBPQ_SHIM_H
#define SESSION_SERVICE_CLIBPQ_SHIM_H

#include <dlfcn.h>
#include "../CLibLoader/system_library.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// libpq's handles (libpq-fe.h declares them as incomplete structs).
typedef struct pg_conn clibpq_connection;   // PGconn
typedef struct pg_result clibpq_result;     // PGresult
/// Oid, the type of a parameter's type (0: let the server infer it).
typedef unsigned int clibpq_oid;
/// libpq's enum types, as the integer type C gives them (no negative member: unsigned).
typedef unsigned int clibpq_connection_status;   // ConnStatusType
typedef unsigned int clibpq_exec_status;         // ExecStatusType
typedef unsigned int clibpq_transaction_status;  // PGTransactionStatusType

/// The values used from libpq's enums: ConnStatusType, ExecStatusType, PGTransactionStatusType,
/// and the PG_DIAG_* field codes of PQresultErrorField.
enum clibpq_value {
    CLIBPQ_CONNECTION_OK = 0, CLIBPQ_CONNECTION_BAD = 1,
    CLIBPQ_PGRES_EMPTY_QUERY = 0, CLIBPQ_PGRES_COMMAND_OK = 1, CLIBPQ_PGRES_TUPLES_OK = 2, CLIBPQ_PGRES_FATAL_ERROR = 7,
    CLIBPQ_PQTRANS_IDLE = 0, CLIBPQ_PQTRANS_INTRANS = 2, CLIBPQ_PQTRANS_INERROR = 3, CLIBPQ_PQTRANS_UNKNOWN = 4,
    CLIBPQ_PG_DIAG_SQLSTATE = 'C', CLIBPQ_PG_DIAG_MESSAGE_PRIMARY = 'M',
};

/// PQconninfoOption: one keyword of a parsed connection string.
typedef struct {
    char *keyword;
    char *envvar;
    char *compiled;
    char *val;
    char *label;
    char *dispchar;
    int dispsize;
} clibpq_conninfo_option;

/// Whether libpq could be used.
enum clibpq_status { CLIBPQ_LOADED = 0, CLIBPQ_NOT_LOADED = 1, CLIBPQ_NO_LIBRARY = 2, CLIBPQ_NO_SYMBOL = 3 };

/// The functions used, each under its own name, found in libpq.so.5.
typedef struct {
    int status;                  // a clibpq_status
    const char *missing_symbol;  // the function the library lacks (CLIBPQ_NO_SYMBOL)
    int (*PQlibVersion)(void);
    clibpq_connection *(*PQconnectdbParams)(const char *const *keywords, const char *const *values, int expand_dbname);
    clibpq_connection_status (*PQstatus)(const clibpq_connection *connection);
    clibpq_transaction_status (*PQtransactionStatus)(const clibpq_connection *connection);
    char *(*PQerrorMessage)(const clibpq_connection *connection);
    void (*PQfinish)(clibpq_connection *connection);
    clibpq_result *(*PQexecParams)(clibpq_connection *connection, const char *command, int count, const clibpq_oid *types,
                                   const char *const *values, const int *lengths, const int *formats, int result_format);
    clibpq_exec_status (*PQresultStatus)(const clibpq_result *result);
    char *(*PQresultErrorField)(const clibpq_result *result, int field);
    int (*PQntuples)(const clibpq_result *result);
    int (*PQnfields)(const clibpq_result *result);
    char *(*PQgetvalue)(const clibpq_result *result, int row, int column);
    int (*PQgetlength)(const clibpq_result *result, int row, int column);
    int (*PQgetisnull)(const clibpq_result *result, int row, int column);
    char *(*PQcmdTuples)(clibpq_result *result);
    void (*PQclear)(clibpq_result *result);
    clibpq_conninfo_option *(*PQconninfoParse)(const char *conninfo, char **errmsg);
    void (*PQconninfoFree)(clibpq_conninfo_option *options);
    void (*PQfreemem)(void *pointer);
} clibpq_api;

/// Loads libpq from `soname` into `api` (which starts zeroed).
static inline void clibpq_load(clibpq_api *api, const char *soname) {
    void *library = session_service_open_system_library(soname);
    if (library == NULL) { api->status = CLIBPQ_NO_LIBRARY; return; }
#define CLIBPQ_FIND(symbol) \
    if ((*(void **)&api->symbol = dlsym(library, #symbol)) == NULL) { \
        api->status = CLIBPQ_NO_SYMBOL; api->missing_symbol = #symbol; dlclose(library); return; }
    CLIBPQ_FIND(PQlibVersion)
    CLIBPQ_FIND(PQconnectdbParams)
    CLIBPQ_FIND(PQstatus)
    CLIBPQ_FIND(PQtransactionStatus)
    CLIBPQ_FIND(PQerrorMessage)
    CLIBPQ_FIND(PQfinish)
    CLIBPQ_FIND(PQexecParams)
    CLIBPQ_FIND(PQresultStatus)
    CLIBPQ_FIND(PQresultErrorField)
    CLIBPQ_FIND(PQntuples)
    CLIBPQ_FIND(PQnfields)
    CLIBPQ_FIND(PQgetvalue)
    CLIBPQ_FIND(PQgetlength)
    CLIBPQ_FIND(PQgetisnull)
    CLIBPQ_FIND(PQcmdTuples)
    CLIBPQ_FIND(PQclear)
    CLIBPQ_FIND(PQconninfoParse)
    CLIBPQ_FIND(PQconninfoFree)
    CLIBPQ_FIND(PQfreemem)
#undef CLIBPQ_FIND
    api->status = CLIBPQ_LOADED;
}

/// The soname loaded: the one every distribution's libpq package ships.
static inline const char *clibpq_soname(void) { return "libpq.so.5"; }

// Function-local statics: Swift emits a header's inline functions, not its static variables.
static inline clibpq_api *clibpq_storage(void) {
    static clibpq_api api = { .status = CLIBPQ_NOT_LOADED };
    return &api;
}
static inline void clibpq_load_shared(void) { clibpq_load(clibpq_storage(), clibpq_soname()); }

/// libpq's functions, loaded on first use; check `status` before calling any of them.
static inline const clibpq_api *clibpq(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, clibpq_load_shared);
    return clibpq_storage();
}

#endif
