// The parts of libsecret (the freedesktop Secret Service client) that SessionKeyring uses, behind
// plain C functions: libsecret's attribute lists are variadic, which Swift cannot call, and GLib's
// errors are read here into a struct Swift can.
#ifndef SESSION_SERVICE_CLIBSECRET_SHIM_H
#define SESSION_SERVICE_CLIBSECRET_SHIM_H

#include <libsecret/secret.h>
#include <string.h>

/// Which GLib error domain a failure came from.
enum clibsecret_domain { CLIBSECRET_NONE = 0, CLIBSECRET_SECRET = 1, CLIBSECRET_DBUS = 2, CLIBSECRET_IO = 3, CLIBSECRET_OTHER = 4 };

/// A failure: its domain, its code in that domain, and GLib's message (free with g_free).
typedef struct {
    int domain;
    int code;
    char *message;
} clibsecret_failure;

/// The outcome of a call: done, failed (see the failure), or refused because the keyring stayed locked.
enum clibsecret_outcome { CLIBSECRET_DONE = 0, CLIBSECRET_FAILED = 1, CLIBSECRET_LOCKED = 2 };

/// SessionService's schema: one item per issuer and client ID.
static inline const SecretSchema *clibsecret_schema(void) {
    static const SecretSchema schema = {
        "org.sessionservice.Session", SECRET_SCHEMA_NONE,
        { { "issuer", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "client_id", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
        0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    return &schema;
}

static inline int clibsecret_fail(GError *error, clibsecret_failure *failure) {
    failure->domain = error->domain == SECRET_ERROR ? CLIBSECRET_SECRET
        : error->domain == G_DBUS_ERROR ? CLIBSECRET_DBUS
        : error->domain == G_IO_ERROR ? CLIBSECRET_IO : CLIBSECRET_OTHER;
    failure->code = error->code;
    failure->message = g_strdup(error->message);
    g_error_free(error);
    return CLIBSECRET_FAILED;
}

static inline GHashTable *clibsecret_attributes(const char *issuer, const char *client_id) {
    GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(attributes, (gpointer)"issuer", (gpointer)issuer);
    g_hash_table_insert(attributes, (gpointer)"client_id", (gpointer)client_id);
    return attributes;
}

/// Reads the item's secret text into *secret (free with g_free); *secret is NULL when there is no
/// item. A locked item is unlocked first, which may show the desktop's prompt; LOCKED when it stays
/// locked (the prompt was dismissed or could not be shown).
static inline int clibsecret_lookup(const char *issuer, const char *client_id, char **secret, clibsecret_failure *failure) {
    GError *error = NULL;
    *secret = NULL;
    GHashTable *attributes = clibsecret_attributes(issuer, client_id);
    GList *items = secret_service_search_sync(NULL, clibsecret_schema(), attributes,
                                              SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK | SECRET_SEARCH_LOAD_SECRETS, NULL, &error);
    g_hash_table_unref(attributes);
    if (error != NULL) return clibsecret_fail(error, failure);
    if (items == NULL) return CLIBSECRET_DONE;
    int outcome = CLIBSECRET_DONE;
    SecretItem *item = items->data;
    // No secret loaded: the item stayed locked (its lock flag is not always refreshed by then).
    SecretValue *value = secret_item_get_locked(item) ? NULL : secret_item_get_secret(item);
    if (value == NULL) {
        outcome = CLIBSECRET_LOCKED;
    } else {
        const gchar *text = secret_value_get_text(value);
        // An item whose secret is not text is not ours: an empty string says so to the decoder.
        *secret = g_strdup(text != NULL ? text : "");
        secret_value_unref(value);
    }
    g_list_free_full(items, g_object_unref);
    return outcome;
}

/// Creates or replaces the item, labelled `label`, in the default collection.
static inline int clibsecret_store(const char *issuer, const char *client_id, const char *label, const char *secret,
                                   clibsecret_failure *failure) {
    GError *error = NULL;
    gboolean stored = secret_password_store_sync(clibsecret_schema(), SECRET_COLLECTION_DEFAULT, label, secret, NULL, &error,
                                                 "issuer", issuer, "client_id", client_id, NULL);
    if (error != NULL) return clibsecret_fail(error, failure);
    return stored ? CLIBSECRET_DONE : CLIBSECRET_LOCKED;
}

/// Deletes the item; done when there was none.
static inline int clibsecret_clear(const char *issuer, const char *client_id, clibsecret_failure *failure) {
    GError *error = NULL;
    secret_password_clear_sync(clibsecret_schema(), NULL, &error, "issuer", issuer, "client_id", client_id, NULL);
    if (error != NULL) return clibsecret_fail(error, failure);
    return CLIBSECRET_DONE;
}

/// Locks the default collection (what a user's screen lock or "Lock" in Seahorse does): for tests.
static inline int clibsecret_lock_default_collection(clibsecret_failure *failure) {
    GError *error = NULL;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_LOAD_COLLECTIONS, NULL, &error);
    if (error != NULL) return clibsecret_fail(error, failure);
    SecretCollection *collection = secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT, SECRET_COLLECTION_NONE, NULL, &error);
    if (error != NULL) { g_object_unref(service); return clibsecret_fail(error, failure); }
    GList *objects = g_list_append(NULL, collection);
    secret_service_lock_sync(service, objects, NULL, NULL, &error);
    g_list_free(objects);
    g_object_unref(collection);
    g_object_unref(service);
    if (error != NULL) return clibsecret_fail(error, failure);
    return CLIBSECRET_DONE;
}

#endif
