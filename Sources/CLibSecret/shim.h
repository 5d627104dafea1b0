// The parts of libsecret (the freedesktop Secret Service client) that SessionKeyring uses.
//
// libsecret is loaded at run time (dlopen of libsecret-1.so.0, with GLib beneath it), not linked:
// building needs no libsecret or GLib headers (their pkg-config flags also carry -pthread, which
// SwiftPM warns about for every package that merely depends on this one), and a machine without
// libsecret gets a clear error from the store instead of a program that does not start. The few
// declarations below transcribe libsecret's and GLib's stable ABI; Tests/Keyring/abi-check.c
// compares each of them with the real headers in CI.
#ifndef SESSION_SERVICE_CLIBSECRET_SHIM_H
#define SESSION_SERVICE_CLIBSECRET_SHIM_H

#include <dlfcn.h>
#include "../CLibLoader/system_library.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// GLib's GError.
typedef struct { uint32_t domain; int code; char *message; } clibsecret_gerror;
/// GLib's GList.
typedef struct clibsecret_glist { void *data; struct clibsecret_glist *next; struct clibsecret_glist *prev; } clibsecret_glist;
/// libsecret's SecretSchemaAttribute and SecretSchema.
typedef struct { const char *name; int type; } clibsecret_schema_attribute;
typedef struct {
    const char *name;
    int flags;
    clibsecret_schema_attribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} clibsecret_schema;

/// The values used from libsecret's and GLib's enums.
enum {
    CLIBSECRET_SEARCH_ALL = 1 << 1, CLIBSECRET_SEARCH_UNLOCK = 1 << 2, CLIBSECRET_SEARCH_LOAD_SECRETS = 1 << 3,
    CLIBSECRET_SERVICE_LOAD_COLLECTIONS = 1 << 2,
    CLIBSECRET_ERROR_IS_LOCKED = 2, CLIBSECRET_ERROR_PROTOCOL = 1,
    CLIBSECRET_DBUS_SERVICE_UNKNOWN = 2, CLIBSECRET_DBUS_NAME_HAS_NO_OWNER = 3, CLIBSECRET_DBUS_NO_REPLY = 4,
    CLIBSECRET_DBUS_NO_SERVER = 11, CLIBSECRET_DBUS_TIMEOUT = 12, CLIBSECRET_DBUS_DISCONNECTED = 15,
    CLIBSECRET_DBUS_FILE_NOT_FOUND = 17, CLIBSECRET_DBUS_TIMED_OUT = 20,
    CLIBSECRET_IO_NOT_FOUND = 1, CLIBSECRET_IO_CANCELLED = 19, CLIBSECRET_IO_TIMED_OUT = 24,
};

/// The functions used, found in libsecret-1.so.0 and the GLib libraries it loads.
typedef struct {
    const char *unavailable;  // why libsecret could not be loaded; NULL once it was
    void *(*hash_table_new)(unsigned (*)(const void *), int (*)(const void *, const void *));
    unsigned (*str_hash)(const void *);
    int (*str_equal)(const void *, const void *);
    int (*hash_table_insert)(void *, void *, void *);
    void (*hash_table_unref)(void *);
    char *(*strdup)(const char *);
    void (*free)(void *);
    void (*error_free)(clibsecret_gerror *);
    clibsecret_glist *(*list_append)(clibsecret_glist *, void *);
    void (*list_free)(clibsecret_glist *);
    void (*list_free_full)(clibsecret_glist *, void (*)(void *));
    void (*object_unref)(void *);
    uint32_t (*secret_error_quark)(void);
    uint32_t (*dbus_error_quark)(void);
    uint32_t (*io_error_quark)(void);
    clibsecret_glist *(*service_search_sync)(void *, const clibsecret_schema *, void *, int, void *, clibsecret_gerror **);
    int (*item_get_locked)(void *);
    void *(*item_get_secret)(void *);
    const char *(*value_get_text)(void *);
    void (*value_unref)(void *);
    int (*password_store_sync)(const clibsecret_schema *, const char *, const char *, const char *, void *, clibsecret_gerror **, ...);
    int (*password_clear_sync)(const clibsecret_schema *, void *, clibsecret_gerror **, ...);
    void *(*service_get_sync)(int, void *, clibsecret_gerror **);
    void *(*collection_for_alias_sync)(void *, const char *, int, void *, clibsecret_gerror **);
    int (*service_lock_sync)(void *, clibsecret_glist *, void *, clibsecret_glist **, clibsecret_gerror **);
    void *(*item_get_attributes)(void *);
    void *(*hash_table_lookup)(void *, const void *);
} clibsecret_api;

static inline void clibsecret_load_once(clibsecret_api *api) {
    void *library = session_service_open_system_library("libsecret-1.so.0");
    if (library == NULL) { api->unavailable = "libsecret-1.so.0 could not be loaded"; return; }
#define CLIBSECRET_FIND(field, symbol) \
    if ((*(void **)&api->field = dlsym(library, symbol)) == NULL) { api->unavailable = "libsecret lacks " symbol; return; }
    CLIBSECRET_FIND(hash_table_new, "g_hash_table_new")
    CLIBSECRET_FIND(str_hash, "g_str_hash")
    CLIBSECRET_FIND(str_equal, "g_str_equal")
    CLIBSECRET_FIND(hash_table_insert, "g_hash_table_insert")
    CLIBSECRET_FIND(hash_table_unref, "g_hash_table_unref")
    CLIBSECRET_FIND(strdup, "g_strdup")
    CLIBSECRET_FIND(free, "g_free")
    CLIBSECRET_FIND(error_free, "g_error_free")
    CLIBSECRET_FIND(list_append, "g_list_append")
    CLIBSECRET_FIND(list_free, "g_list_free")
    CLIBSECRET_FIND(list_free_full, "g_list_free_full")
    CLIBSECRET_FIND(object_unref, "g_object_unref")
    CLIBSECRET_FIND(secret_error_quark, "secret_error_get_quark")
    CLIBSECRET_FIND(dbus_error_quark, "g_dbus_error_quark")
    CLIBSECRET_FIND(io_error_quark, "g_io_error_quark")
    CLIBSECRET_FIND(service_search_sync, "secret_service_search_sync")
    CLIBSECRET_FIND(item_get_locked, "secret_item_get_locked")
    CLIBSECRET_FIND(item_get_secret, "secret_item_get_secret")
    CLIBSECRET_FIND(value_get_text, "secret_value_get_text")
    CLIBSECRET_FIND(value_unref, "secret_value_unref")
    CLIBSECRET_FIND(password_store_sync, "secret_password_store_sync")
    CLIBSECRET_FIND(password_clear_sync, "secret_password_clear_sync")
    CLIBSECRET_FIND(service_get_sync, "secret_service_get_sync")
    CLIBSECRET_FIND(collection_for_alias_sync, "secret_collection_for_alias_sync")
    CLIBSECRET_FIND(service_lock_sync, "secret_service_lock_sync")
    CLIBSECRET_FIND(item_get_attributes, "secret_item_get_attributes")
    CLIBSECRET_FIND(hash_table_lookup, "g_hash_table_lookup")
#undef CLIBSECRET_FIND
}

// Function-local statics: Swift emits a header's inline functions, not its static variables.
static inline clibsecret_api *clibsecret_storage(void) {
    static clibsecret_api api;
    return &api;
}
static inline void clibsecret_load_shared(void) { clibsecret_load_once(clibsecret_storage()); }

/// libsecret's functions, loaded on first use.
static inline const clibsecret_api *clibsecret(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, clibsecret_load_shared);
    return clibsecret_storage();
}

/// Which error domain a failure came from.
enum clibsecret_domain { CLIBSECRET_NONE = 0, CLIBSECRET_SECRET = 1, CLIBSECRET_DBUS = 2, CLIBSECRET_IO = 3, CLIBSECRET_OTHER = 4,
                         CLIBSECRET_UNAVAILABLE = 5 };

/// A failure: its domain, its code in that domain, and the message (free with free()).
typedef struct {
    int domain;
    int code;
    char *message;
} clibsecret_failure;

/// The outcome of a call: done, failed (see the failure), or refused because the keyring stayed locked.
enum clibsecret_outcome { CLIBSECRET_DONE = 0, CLIBSECRET_FAILED = 1, CLIBSECRET_LOCKED = 2 };

/// SessionService's schema: one item per issuer and client ID.
static inline const clibsecret_schema *clibsecret_schema_of_sessions(void) {
    static const clibsecret_schema schema = {
        "org.sessionservice.Session", 0, { { "issuer", 0 }, { "client_id", 0 }, { NULL, 0 } }, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    return &schema;
}

/// SessionService's schema of several accounts: one item per issuer, client ID and account (a digest
/// of the subject). Searches match the schema's name, so its items and the one-session items never mix.
static inline const clibsecret_schema *clibsecret_schema_of_accounts(void) {
    static const clibsecret_schema schema = {
        "org.sessionservice.Account", 0, { { "issuer", 0 }, { "client_id", 0 }, { "account", 0 }, { NULL, 0 } },
        0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    return &schema;
}

static inline int clibsecret_fail(const clibsecret_api *api, clibsecret_gerror *error, clibsecret_failure *failure) {
    failure->domain = error->domain == api->secret_error_quark() ? CLIBSECRET_SECRET
        : error->domain == api->dbus_error_quark() ? CLIBSECRET_DBUS
        : error->domain == api->io_error_quark() ? CLIBSECRET_IO : CLIBSECRET_OTHER;
    failure->code = error->code;
    failure->message = strdup(error->message != NULL ? error->message : "");
    api->error_free(error);
    return CLIBSECRET_FAILED;
}

/// The API, or NULL with the failure filled in when libsecret is not there.
static inline const clibsecret_api *clibsecret_available(clibsecret_failure *failure) {
    const clibsecret_api *api = clibsecret();
    if (api->unavailable == NULL) return api;
    failure->domain = CLIBSECRET_UNAVAILABLE;
    failure->code = 0;
    failure->message = strdup(api->unavailable);
    return NULL;
}

/// The attributes naming an item: issuer and client ID, and the account when there is one (free
/// with api->hash_table_unref; the strings are borrowed).
static inline void *clibsecret_attributes(const clibsecret_api *api, const char *issuer, const char *client_id, const char *account) {
    void *attributes = api->hash_table_new(api->str_hash, api->str_equal);
    api->hash_table_insert(attributes, (void *)"issuer", (void *)issuer);
    api->hash_table_insert(attributes, (void *)"client_id", (void *)client_id);
    if (account != NULL) api->hash_table_insert(attributes, (void *)"account", (void *)account);
    return attributes;
}

/// The secret text of a found item into *secret (free with free()); LOCKED when no secret was
/// loaded: the item stayed locked (its lock flag is not always refreshed by then).
static inline int clibsecret_secret_of(const clibsecret_api *api, void *item, char **secret) {
    void *value = api->item_get_locked(item) ? NULL : api->item_get_secret(item);
    if (value == NULL) return CLIBSECRET_LOCKED;
    const char *text = api->value_get_text(value);
    // An item whose secret is not text is not ours: an empty string says so to the decoder.
    *secret = strdup(text != NULL ? text : "");
    api->value_unref(value);
    return CLIBSECRET_DONE;
}

/// Searches the items of issuer and client ID (and account, when not NULL: then under the schema of
/// accounts), unlocking them and loading their secrets; a locked item is unlocked first, which may
/// show the desktop's prompt.
static inline int clibsecret_search(const clibsecret_api *api, const char *issuer, const char *client_id, const char *account,
                                    const clibsecret_schema *schema, clibsecret_glist **items, clibsecret_failure *failure) {
    clibsecret_gerror *error = NULL;
    void *attributes = clibsecret_attributes(api, issuer, client_id, account);
    *items = api->service_search_sync(NULL, schema, attributes,
        CLIBSECRET_SEARCH_ALL | CLIBSECRET_SEARCH_UNLOCK | CLIBSECRET_SEARCH_LOAD_SECRETS, NULL, &error);
    api->hash_table_unref(attributes);
    if (error != NULL) return clibsecret_fail(api, error, failure);
    return CLIBSECRET_DONE;
}

/// Reads the item's secret text into *secret (free with free()); *secret is NULL when there is no
/// item. `account` NULL: the one-session item; otherwise that account's item. LOCKED when the item
/// stays locked (the unlock prompt was dismissed or could not be shown).
static inline int clibsecret_lookup(const char *issuer, const char *client_id, const char *account, char **secret,
                                    clibsecret_failure *failure) {
    *secret = NULL;
    const clibsecret_api *api = clibsecret_available(failure);
    if (api == NULL) return CLIBSECRET_FAILED;
    clibsecret_glist *items = NULL;
    const clibsecret_schema *schema = account == NULL ? clibsecret_schema_of_sessions() : clibsecret_schema_of_accounts();
    int outcome = clibsecret_search(api, issuer, client_id, account, schema, &items, failure);
    if (outcome != CLIBSECRET_DONE || items == NULL) return outcome;
    outcome = clibsecret_secret_of(api, items->data, secret);
    api->list_free_full(items, api->object_unref);
    return outcome;
}

/// Every account item of issuer and client ID: *accounts[i] its account attribute and *secrets[i]
/// its secret text, *count of them (free each string, then both arrays, with free()). LOCKED when
/// an item stays locked; then nothing is returned.
static inline int clibsecret_lookup_accounts(const char *issuer, const char *client_id, char ***accounts, char ***secrets,
                                             int *count, clibsecret_failure *failure) {
    *accounts = NULL;
    *secrets = NULL;
    *count = 0;
    const clibsecret_api *api = clibsecret_available(failure);
    if (api == NULL) return CLIBSECRET_FAILED;
    clibsecret_glist *items = NULL;
    int outcome = clibsecret_search(api, issuer, client_id, NULL, clibsecret_schema_of_accounts(), &items, failure);
    if (outcome != CLIBSECRET_DONE || items == NULL) return outcome;
    int length = 0;
    for (clibsecret_glist *item = items; item != NULL; item = item->next) length++;
    *accounts = calloc((size_t)length, sizeof(char *));
    *secrets = calloc((size_t)length, sizeof(char *));
    for (clibsecret_glist *item = items; item != NULL && outcome == CLIBSECRET_DONE; item = item->next) {
        void *attributes = api->item_get_attributes(item->data);
        const char *account = attributes != NULL ? api->hash_table_lookup(attributes, "account") : NULL;
        char *secret = NULL;
        if (account != NULL && (outcome = clibsecret_secret_of(api, item->data, &secret)) == CLIBSECRET_DONE) {
            (*accounts)[*count] = strdup(account);
            (*secrets)[*count] = secret;
            (*count)++;
        }
        if (attributes != NULL) api->hash_table_unref(attributes);
    }
    api->list_free_full(items, api->object_unref);
    if (outcome != CLIBSECRET_DONE) {
        for (int i = 0; i < *count; i++) { free((*accounts)[i]); free((*secrets)[i]); }
        free(*accounts);
        free(*secrets);
        *accounts = NULL;
        *secrets = NULL;
        *count = 0;
    }
    return outcome;
}

/// Creates or replaces the item (the account's, when `account` is not NULL), labelled `label`, in
/// the default collection.
static inline int clibsecret_store(const char *issuer, const char *client_id, const char *account, const char *label,
                                   const char *secret, clibsecret_failure *failure) {
    const clibsecret_api *api = clibsecret_available(failure);
    if (api == NULL) return CLIBSECRET_FAILED;
    clibsecret_gerror *error = NULL;
    int stored = account == NULL
        ? api->password_store_sync(clibsecret_schema_of_sessions(), "default", label, secret, NULL, &error,
                                   "issuer", issuer, "client_id", client_id, NULL)
        : api->password_store_sync(clibsecret_schema_of_accounts(), "default", label, secret, NULL, &error,
                                   "issuer", issuer, "client_id", client_id, "account", account, NULL);
    if (error != NULL) return clibsecret_fail(api, error, failure);
    return stored ? CLIBSECRET_DONE : CLIBSECRET_LOCKED;
}

/// Deletes the item (the account's, when `account` is not NULL); done when there was none.
static inline int clibsecret_clear(const char *issuer, const char *client_id, const char *account, clibsecret_failure *failure) {
    const clibsecret_api *api = clibsecret_available(failure);
    if (api == NULL) return CLIBSECRET_FAILED;
    clibsecret_gerror *error = NULL;
    if (account == NULL) {
        api->password_clear_sync(clibsecret_schema_of_sessions(), NULL, &error, "issuer", issuer, "client_id", client_id, NULL);
    } else {
        api->password_clear_sync(clibsecret_schema_of_accounts(), NULL, &error, "issuer", issuer, "client_id", client_id,
                                 "account", account, NULL);
    }
    if (error != NULL) return clibsecret_fail(api, error, failure);
    return CLIBSECRET_DONE;
}

/// Locks the default collection (what a user's screen lock or "Lock" in Seahorse does): for tests.
static inline int clibsecret_lock_default_collection(clibsecret_failure *failure) {
    const clibsecret_api *api = clibsecret_available(failure);
    if (api == NULL) return CLIBSECRET_FAILED;
    clibsecret_gerror *error = NULL;
    void *service = api->service_get_sync(CLIBSECRET_SERVICE_LOAD_COLLECTIONS, NULL, &error);
    if (error != NULL) return clibsecret_fail(api, error, failure);
    void *collection = api->collection_for_alias_sync(service, "default", 0, NULL, &error);
    if (error != NULL) { api->object_unref(service); return clibsecret_fail(api, error, failure); }
    clibsecret_glist *objects = api->list_append(NULL, collection);
    api->service_lock_sync(service, objects, NULL, NULL, &error);
    api->list_free(objects);
    api->object_unref(collection);
    api->object_unref(service);
    if (error != NULL) return clibsecret_fail(api, error, failure);
    return CLIBSECRET_DONE;
}

#endif
