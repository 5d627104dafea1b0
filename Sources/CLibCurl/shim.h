// The parts of libcurl (7.85 or later, for CURLOPT_PROTOCOLS_STR) that SessionService's Linux
// transport uses: easy handles driven by one multi handle.
//
// libcurl is loaded at run time (dlopen of libcurl.so.4, the soname every Linux distribution
// ships and FoundationNetworking itself needs), not linked: building needs no libcurl headers and
// no -dev package, and a machine without libcurl gets a clear error from the transport instead of
// a program that does not start. The declarations below transcribe libcurl's stable ABI (the
// types under names of our own, the constants with CLIB before curl's names);
// Tests/ABI/curl-abi-check.c compares each of them with the real curl/curl.h in CI.
#ifndef SESSION_SERVICE_CLIBCURL_SHIM_H
#define SESSION_SERVICE_CLIBCURL_SHIM_H

#include <dlfcn.h>
#include "../CLibLoader/system_library.h"
#include <pthread.h>
#include <stddef.h>

/// libcurl's handles (curl.h declares them as void).
typedef void CURL;
typedef void CURLM;
/// curl_off_t on the 64-bit Linux ABIs SessionService builds for.
typedef long curl_off_t;
/// The type of CURLOPT_WRITEFUNCTION's and CURLOPT_HEADERFUNCTION's callbacks.
typedef size_t (*curl_write_callback)(char *buffer, size_t size, size_t nitems, void *outstream);
/// Structures the transport only passes on.
struct curl_slist;
struct curl_waitfd;
struct CURLMsg;

/// libcurl's enum types, as the integer types C gives them (no negative member: unsigned;
/// CURLMcode has CURLM_CALL_MULTI_PERFORM = -1).
typedef unsigned int clibcurl_code;      // CURLcode
typedef int clibcurl_multi_code;         // CURLMcode
typedef unsigned int clibcurl_option;    // CURLoption
typedef unsigned int clibcurl_multi_option;  // CURLMoption
typedef unsigned int clibcurl_info;      // CURLINFO
typedef unsigned int clibcurl_message_kind;  // CURLMSG

/// CURLMsg: what curl_multi_info_read reports about a transfer.
typedef struct {
    clibcurl_message_kind msg;
    CURL *easy_handle;
    union { void *whatever; clibcurl_code result; } data;
} clibcurl_message;

/// The values used from libcurl's enums and defines.
static const long CLIBCURL_GLOBAL_ALL = 3;
static const clibcurl_code CLIBCURLE_OK = 0, CLIBCURLE_UNSUPPORTED_PROTOCOL = 1, CLIBCURLE_FAILED_INIT = 2,
    CLIBCURLE_URL_MALFORMAT = 3, CLIBCURLE_COULDNT_RESOLVE_PROXY = 5, CLIBCURLE_COULDNT_RESOLVE_HOST = 6,
    CLIBCURLE_COULDNT_CONNECT = 7, CLIBCURLE_WEIRD_SERVER_REPLY = 8, CLIBCURLE_HTTP2 = 16, CLIBCURLE_PARTIAL_FILE = 18, CLIBCURLE_OUT_OF_MEMORY = 27,
    CLIBCURLE_OPERATION_TIMEDOUT = 28, CLIBCURLE_SSL_CONNECT_ERROR = 35, CLIBCURLE_ABORTED_BY_CALLBACK = 42,
    CLIBCURLE_TOO_MANY_REDIRECTS = 47, CLIBCURLE_GOT_NOTHING = 52, CLIBCURLE_SEND_ERROR = 55, CLIBCURLE_RECV_ERROR = 56,
    CLIBCURLE_PEER_FAILED_VERIFICATION = 60, CLIBCURLE_BAD_CONTENT_ENCODING = 61, CLIBCURLE_FILESIZE_EXCEEDED = 63,
    CLIBCURLE_SSL_CACERT_BADFILE = 77, CLIBCURLE_SSL_ISSUER_ERROR = 83, CLIBCURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    CLIBCURLE_HTTP2_STREAM = 92;
static const clibcurl_multi_code CLIBCURLM_OK = 0;
static const clibcurl_message_kind CLIBCURLMSG_DONE = 1;
static const clibcurl_multi_option CLIBCURLMOPT_MAX_HOST_CONNECTIONS = 7;
static const clibcurl_info CLIBCURLINFO_RESPONSE_CODE = 0x200002;
static const clibcurl_option CLIBCURLOPT_WRITEDATA = 10001, CLIBCURLOPT_URL = 10002, CLIBCURLOPT_WRITEFUNCTION = 20011,
    CLIBCURLOPT_HTTPHEADER = 10023, CLIBCURLOPT_HEADERDATA = 10029, CLIBCURLOPT_CUSTOMREQUEST = 10036,
    CLIBCURLOPT_NOBODY = 44, CLIBCURLOPT_POST = 47, CLIBCURLOPT_FOLLOWLOCATION = 52, CLIBCURLOPT_SSL_VERIFYPEER = 64,
    CLIBCURLOPT_FRESH_CONNECT = 74, CLIBCURLOPT_FORBID_REUSE = 75, CLIBCURLOPT_HTTPGET = 80,
    CLIBCURLOPT_SSL_VERIFYHOST = 81, CLIBCURLOPT_HEADERFUNCTION = 20079, CLIBCURLOPT_NOSIGNAL = 99,
    CLIBCURLOPT_ACCEPT_ENCODING = 10102, CLIBCURLOPT_MAXFILESIZE_LARGE = 30117, CLIBCURLOPT_POSTFIELDSIZE_LARGE = 30120,
    CLIBCURLOPT_TIMEOUT_MS = 155, CLIBCURLOPT_CONNECTTIMEOUT_MS = 156, CLIBCURLOPT_COPYPOSTFIELDS = 10165,
    CLIBCURLOPT_PROTOCOLS_STR = 10318, CLIBCURLOPT_REDIR_PROTOCOLS_STR = 10319;

/// Whether libcurl could be used.
enum clibcurl_status { CLIBCURL_LOADED = 0, CLIBCURL_NOT_LOADED = 1, CLIBCURL_NO_LIBRARY = 2, CLIBCURL_NO_SYMBOL = 3,
                       CLIBCURL_NOT_INITIALIZED = 4 };

/// The functions used, each under its own name, found in libcurl.so.4.
typedef struct {
    int status;                  // a clibcurl_status
    const char *missing_symbol;  // the function the library lacks (CLIBCURL_NO_SYMBOL)
    clibcurl_code (*curl_global_init)(long flags);
    CURL *(*curl_easy_init)(void);
    void (*curl_easy_cleanup)(CURL *curl);
    clibcurl_code (*curl_easy_setopt)(CURL *curl, clibcurl_option option, ...);
    clibcurl_code (*curl_easy_getinfo)(CURL *curl, clibcurl_info info, ...);
    struct curl_slist *(*curl_slist_append)(struct curl_slist *list, const char *data);
    void (*curl_slist_free_all)(struct curl_slist *list);
    CURLM *(*curl_multi_init)(void);
    clibcurl_multi_code (*curl_multi_setopt)(CURLM *multi, clibcurl_multi_option option, ...);
    clibcurl_multi_code (*curl_multi_add_handle)(CURLM *multi, CURL *curl);
    clibcurl_multi_code (*curl_multi_remove_handle)(CURLM *multi, CURL *curl);
    clibcurl_multi_code (*curl_multi_perform)(CURLM *multi, int *running);
    clibcurl_multi_code (*curl_multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready);
    clibcurl_multi_code (*curl_multi_wakeup)(CURLM *multi);
    struct CURLMsg *(*curl_multi_info_read)(CURLM *multi, int *queued);
} clibcurl_api;

/// Loads libcurl from `soname` into `api` (which starts zeroed) and initializes it.
static inline void clibcurl_load(clibcurl_api *api, const char *soname) {
    void *library = session_service_open_system_library(soname);
    if (library == NULL) { api->status = CLIBCURL_NO_LIBRARY; return; }
#define CLIBCURL_FIND(symbol) \
    if ((*(void **)&api->symbol = dlsym(library, #symbol)) == NULL) { \
        api->status = CLIBCURL_NO_SYMBOL; api->missing_symbol = #symbol; dlclose(library); return; }
    CLIBCURL_FIND(curl_global_init)
    CLIBCURL_FIND(curl_easy_init)
    CLIBCURL_FIND(curl_easy_cleanup)
    CLIBCURL_FIND(curl_easy_setopt)
    CLIBCURL_FIND(curl_easy_getinfo)
    CLIBCURL_FIND(curl_slist_append)
    CLIBCURL_FIND(curl_slist_free_all)
    CLIBCURL_FIND(curl_multi_init)
    CLIBCURL_FIND(curl_multi_setopt)
    CLIBCURL_FIND(curl_multi_add_handle)
    CLIBCURL_FIND(curl_multi_remove_handle)
    CLIBCURL_FIND(curl_multi_perform)
    CLIBCURL_FIND(curl_multi_poll)
    CLIBCURL_FIND(curl_multi_wakeup)
    CLIBCURL_FIND(curl_multi_info_read)
#undef CLIBCURL_FIND
    // (Parenthesized calls: the ABI check includes curl.h, whose curl_easy_setopt is also a macro.)
    api->status = (api->curl_global_init)(CLIBCURL_GLOBAL_ALL) == CLIBCURLE_OK ? CLIBCURL_LOADED : CLIBCURL_NOT_INITIALIZED;
}

/// The soname loaded: the one every distribution's libcurl package ships.
static inline const char *clibcurl_soname(void) { return "libcurl.so.4"; }

// Function-local statics: Swift emits a header's inline functions, not its static variables.
static inline clibcurl_api *clibcurl_storage(void) {
    static clibcurl_api api = { .status = CLIBCURL_NOT_LOADED };
    return &api;
}
static inline void clibcurl_load_shared(void) { clibcurl_load(clibcurl_storage(), clibcurl_soname()); }

/// libcurl's functions, loaded (and curl_global_init called) on first use; check `status`
/// before calling any of them.
static inline const clibcurl_api *clibcurl(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, clibcurl_load_shared);
    return clibcurl_storage();
}

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call, so each argument
// type the transport passes gets a typed wrapper. All of them require a loaded libcurl.
static inline clibcurl_code clibcurl_setopt_long(CURL *handle, clibcurl_option option, long value) {
    return (clibcurl()->curl_easy_setopt)(handle, option, value);
}
static inline clibcurl_code clibcurl_setopt_offset(CURL *handle, clibcurl_option option, curl_off_t value) {
    return (clibcurl()->curl_easy_setopt)(handle, option, value);
}
static inline clibcurl_code clibcurl_setopt_string(CURL *handle, clibcurl_option option, const char *value) {
    return (clibcurl()->curl_easy_setopt)(handle, option, value);
}
static inline clibcurl_code clibcurl_setopt_pointer(CURL *handle, clibcurl_option option, void *value) {
    return (clibcurl()->curl_easy_setopt)(handle, option, value);
}
static inline clibcurl_code clibcurl_setopt_headers(CURL *handle, struct curl_slist *headers) {
    return (clibcurl()->curl_easy_setopt)(handle, CLIBCURLOPT_HTTPHEADER, headers);
}
static inline clibcurl_code clibcurl_setopt_write_function(CURL *handle, curl_write_callback function) {
    return (clibcurl()->curl_easy_setopt)(handle, CLIBCURLOPT_WRITEFUNCTION, function);
}
static inline clibcurl_code clibcurl_setopt_header_function(CURL *handle, curl_write_callback function) {
    return (clibcurl()->curl_easy_setopt)(handle, CLIBCURLOPT_HEADERFUNCTION, function);
}
static inline clibcurl_multi_code clibcurl_multi_setopt_long(CURLM *multi, clibcurl_multi_option option, long value) {
    return (clibcurl()->curl_multi_setopt)(multi, option, value);
}
static inline clibcurl_code clibcurl_getinfo_long(CURL *handle, clibcurl_info info, long *value) {
    return (clibcurl()->curl_easy_getinfo)(handle, info, value);
}

/// The message's fields (CURLMsg's result sits in a union Swift reads awkwardly).
static inline const clibcurl_message *clibcurl_message_fields(const struct CURLMsg *message) {
    return (const clibcurl_message *)(const void *)message;
}

#endif
