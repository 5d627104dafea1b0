// Compares the declarations Sources/CLibPQ/shim.h transcribes (SessionPostgres loads libpq at run
// time, without its headers) with libpq's real libpq-fe.h: the enum types' integer types and the
// type of every function the shim looks up fail the compile when they differ; the enum values are
// compared too, and the program then loads the library and finds every symbol. Run by
// Tests/ABI/run.sh where libpq-dev is installed.
#include <stddef.h>
#include <stdio.h>
#include <libpq-fe.h>
#include "../../Sources/CLibPQ/shim.h"

#define SAME(a, b) _Static_assert((long)(a) == (long)(b), #a " differs from " #b)
#define SAME_TYPE(a, b) _Static_assert(__builtin_types_compatible_p(a, b), #a " is not " #b)
#define SAME_FUNCTION(name) SAME_TYPE(__typeof__(((clibpq_api *)0)->name), __typeof__(&(name)))

SAME_TYPE(clibpq_connection, PGconn);
SAME_TYPE(clibpq_result, PGresult);
SAME_TYPE(clibpq_oid, Oid);
SAME_TYPE(clibpq_connection_status, ConnStatusType);
SAME_TYPE(clibpq_exec_status, ExecStatusType);
SAME_TYPE(clibpq_transaction_status, PGTransactionStatusType);

SAME(sizeof(clibpq_conninfo_option), sizeof(PQconninfoOption));
SAME(offsetof(clibpq_conninfo_option, keyword), offsetof(PQconninfoOption, keyword));
SAME(offsetof(clibpq_conninfo_option, val), offsetof(PQconninfoOption, val));
SAME(offsetof(clibpq_conninfo_option, dispsize), offsetof(PQconninfoOption, dispsize));

SAME(CLIBPQ_CONNECTION_OK, CONNECTION_OK);
SAME(CLIBPQ_CONNECTION_BAD, CONNECTION_BAD);
SAME(CLIBPQ_PGRES_EMPTY_QUERY, PGRES_EMPTY_QUERY);
SAME(CLIBPQ_PGRES_COMMAND_OK, PGRES_COMMAND_OK);
SAME(CLIBPQ_PGRES_TUPLES_OK, PGRES_TUPLES_OK);
SAME(CLIBPQ_PGRES_FATAL_ERROR, PGRES_FATAL_ERROR);
SAME(CLIBPQ_PQTRANS_IDLE, PQTRANS_IDLE);
SAME(CLIBPQ_PQTRANS_INTRANS, PQTRANS_INTRANS);
SAME(CLIBPQ_PQTRANS_INERROR, PQTRANS_INERROR);
SAME(CLIBPQ_PQTRANS_UNKNOWN, PQTRANS_UNKNOWN);
SAME(CLIBPQ_PG_DIAG_SQLSTATE, PG_DIAG_SQLSTATE);
SAME(CLIBPQ_PG_DIAG_MESSAGE_PRIMARY, PG_DIAG_MESSAGE_PRIMARY);

SAME_FUNCTION(PQlibVersion);
SAME_FUNCTION(PQconnectdbParams);
SAME_FUNCTION(PQstatus);
SAME_FUNCTION(PQtransactionStatus);
SAME_FUNCTION(PQerrorMessage);
SAME_FUNCTION(PQfinish);
SAME_FUNCTION(PQexecParams);
SAME_FUNCTION(PQresultStatus);
SAME_FUNCTION(PQresultErrorField);
SAME_FUNCTION(PQntuples);
SAME_FUNCTION(PQnfields);
SAME_FUNCTION(PQgetvalue);
SAME_FUNCTION(PQgetlength);
SAME_FUNCTION(PQgetisnull);
SAME_FUNCTION(PQcmdTuples);
SAME_FUNCTION(PQclear);
SAME_FUNCTION(PQfreemem);
// PQconninfoParse returns PQconninfoOption *, which the shim names clibpq_conninfo_option *.
SAME_TYPE(__typeof__(((clibpq_api *)0)->PQconninfoParse), clibpq_conninfo_option *(*)(const char *, char **));
SAME_TYPE(__typeof__(&PQconninfoParse), PQconninfoOption *(*)(const char *, char **));
SAME_TYPE(__typeof__(((clibpq_api *)0)->PQconninfoFree), void (*)(clibpq_conninfo_option *));

int main(void) {
    const clibpq_api *api = clibpq();
    if (api->status != CLIBPQ_LOADED) {
        fprintf(stderr, "libpq did not load (status %d, missing %s)\n", api->status, api->missing_symbol ? api->missing_symbol : "-");
        return 1;
    }
    // The shim's PQconninfoOption is read field by field from Swift: its settings must come out right.
    char *error = NULL;
    clibpq_conninfo_option *options = api->PQconninfoParse("host=127.0.0.1 password='s3cret pass'", &error);
    int found = 0;
    for (clibpq_conninfo_option *option = options; option != NULL && option->keyword != NULL; option++) {
        if (strcmp(option->keyword, "password") == 0 && option->val != NULL && strcmp(option->val, "s3cret pass") == 0) found = 1;
    }
    if (options != NULL) api->PQconninfoFree(options);
    if (!found) { fprintf(stderr, "PQconninfoParse's options did not read as the shim lays them out\n"); return 1; }
    if (api->PQconninfoParse("host=127.0.0.1 password", &error) != NULL) { fprintf(stderr, "an unparsable string was parsed\n"); return 1; }
    if (error != NULL) api->PQfreemem(error);
    printf("pq: the shim matches libpq-fe.h, and libpq %d loads with every symbol\n", api->PQlibVersion());
    return 0;
}
