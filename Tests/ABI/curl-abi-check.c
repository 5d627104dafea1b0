// Compares the declarations Sources/CLibCurl/shim.h transcribes (SessionCore loads libcurl at
// run time, without its headers) with libcurl's real curl/curl.h: the layout of CURLMsg, the enum
// types' integer types and the type of every function the shim looks up fail the compile when
// they differ; the constants (static const in the shim, so that Swift sees them typed) are
// compared when the program runs, which then also loads the library and finds every symbol.
// Run by Tests/ABI/run.sh where libcurl4-openssl-dev is installed.
#include <stddef.h>
#include <stdio.h>
#include <curl/curl.h>
#include "../../Sources/CLibCurl/shim.h"

#define SAME(a, b) _Static_assert((long)(a) == (long)(b), #a " differs from " #b)
#define SAME_TYPE(a, b) _Static_assert(__builtin_types_compatible_p(a, b), #a " is not " #b)
// The field is named after the function; (&name) keeps curl.h's function-like macros out.
#define SAME_FUNCTION(name) SAME_TYPE(__typeof__(((clibcurl_api *)0)->name), __typeof__(&(name)))

SAME_TYPE(clibcurl_code, CURLcode);
SAME_TYPE(clibcurl_multi_code, CURLMcode);
SAME_TYPE(clibcurl_option, CURLoption);
SAME_TYPE(clibcurl_multi_option, CURLMoption);
SAME_TYPE(clibcurl_info, CURLINFO);
SAME_TYPE(clibcurl_message_kind, CURLMSG);

SAME(sizeof(clibcurl_message), sizeof(CURLMsg));
SAME(offsetof(clibcurl_message, msg), offsetof(CURLMsg, msg));
SAME(offsetof(clibcurl_message, easy_handle), offsetof(CURLMsg, easy_handle));
SAME(offsetof(clibcurl_message, data), offsetof(CURLMsg, data));
SAME(offsetof(clibcurl_message, data.result), offsetof(CURLMsg, data.result));
SAME_TYPE(__typeof__(((clibcurl_message *)0)->data.result), __typeof__(((CURLMsg *)0)->data.result));


SAME_FUNCTION(curl_global_init);
SAME_FUNCTION(curl_easy_init);
SAME_FUNCTION(curl_easy_cleanup);
SAME_FUNCTION(curl_easy_setopt);
SAME_FUNCTION(curl_easy_getinfo);
SAME_FUNCTION(curl_slist_append);
SAME_FUNCTION(curl_slist_free_all);
SAME_FUNCTION(curl_multi_init);
SAME_FUNCTION(curl_multi_setopt);
SAME_FUNCTION(curl_multi_add_handle);
SAME_FUNCTION(curl_multi_remove_handle);
SAME_FUNCTION(curl_multi_perform);
SAME_FUNCTION(curl_multi_poll);
SAME_FUNCTION(curl_multi_wakeup);
SAME_FUNCTION(curl_multi_info_read);

static int differences = 0;
#define SAME_CONSTANT(name) \
    if ((long)CLIB##name != (long)name) { fprintf(stderr, "CLIB" #name " is %ld, curl.h says %ld\n", (long)CLIB##name, (long)name); differences++; }

int main(void) {
    SAME_CONSTANT(CURL_GLOBAL_ALL);
    SAME_CONSTANT(CURLE_OK);
    SAME_CONSTANT(CURLE_UNSUPPORTED_PROTOCOL);
    SAME_CONSTANT(CURLE_FAILED_INIT);
    SAME_CONSTANT(CURLE_URL_MALFORMAT);
    SAME_CONSTANT(CURLE_COULDNT_RESOLVE_PROXY);
    SAME_CONSTANT(CURLE_COULDNT_RESOLVE_HOST);
    SAME_CONSTANT(CURLE_COULDNT_CONNECT);
    SAME_CONSTANT(CURLE_WEIRD_SERVER_REPLY);
    SAME_CONSTANT(CURLE_HTTP2);
    SAME_CONSTANT(CURLE_PARTIAL_FILE);
    SAME_CONSTANT(CURLE_OUT_OF_MEMORY);
    SAME_CONSTANT(CURLE_OPERATION_TIMEDOUT);
    SAME_CONSTANT(CURLE_SSL_CONNECT_ERROR);
    SAME_CONSTANT(CURLE_ABORTED_BY_CALLBACK);
    SAME_CONSTANT(CURLE_TOO_MANY_REDIRECTS);
    SAME_CONSTANT(CURLE_GOT_NOTHING);
    SAME_CONSTANT(CURLE_SEND_ERROR);
    SAME_CONSTANT(CURLE_RECV_ERROR);
    SAME_CONSTANT(CURLE_PEER_FAILED_VERIFICATION);
    SAME_CONSTANT(CURLE_BAD_CONTENT_ENCODING);
    SAME_CONSTANT(CURLE_FILESIZE_EXCEEDED);
    SAME_CONSTANT(CURLE_SSL_CACERT_BADFILE);
    SAME_CONSTANT(CURLE_SSL_ISSUER_ERROR);
    SAME_CONSTANT(CURLE_SSL_PINNEDPUBKEYNOTMATCH);
    SAME_CONSTANT(CURLE_HTTP2_STREAM);
    SAME_CONSTANT(CURLM_OK);
    SAME_CONSTANT(CURLMSG_DONE);
    SAME_CONSTANT(CURLMOPT_MAX_HOST_CONNECTIONS);
    SAME_CONSTANT(CURLINFO_RESPONSE_CODE);
    SAME_CONSTANT(CURLOPT_WRITEDATA);
    SAME_CONSTANT(CURLOPT_URL);
    SAME_CONSTANT(CURLOPT_WRITEFUNCTION);
    SAME_CONSTANT(CURLOPT_HTTPHEADER);
    SAME_CONSTANT(CURLOPT_HEADERDATA);
    SAME_CONSTANT(CURLOPT_CUSTOMREQUEST);
    SAME_CONSTANT(CURLOPT_NOBODY);
    SAME_CONSTANT(CURLOPT_POST);
    SAME_CONSTANT(CURLOPT_FOLLOWLOCATION);
    SAME_CONSTANT(CURLOPT_SSL_VERIFYPEER);
    SAME_CONSTANT(CURLOPT_FRESH_CONNECT);
    SAME_CONSTANT(CURLOPT_FORBID_REUSE);
    SAME_CONSTANT(CURLOPT_HTTPGET);
    SAME_CONSTANT(CURLOPT_SSL_VERIFYHOST);
    SAME_CONSTANT(CURLOPT_HEADERFUNCTION);
    SAME_CONSTANT(CURLOPT_NOSIGNAL);
    SAME_CONSTANT(CURLOPT_ACCEPT_ENCODING);
    SAME_CONSTANT(CURLOPT_MAXFILESIZE_LARGE);
    SAME_CONSTANT(CURLOPT_POSTFIELDSIZE_LARGE);
    SAME_CONSTANT(CURLOPT_TIMEOUT_MS);
    SAME_CONSTANT(CURLOPT_CONNECTTIMEOUT_MS);
    SAME_CONSTANT(CURLOPT_COPYPOSTFIELDS);
    SAME_CONSTANT(CURLOPT_PROTOCOLS_STR);
    SAME_CONSTANT(CURLOPT_REDIR_PROTOCOLS_STR);
    if (differences > 0) return 1;
    // And the library really loads, every symbol found and initialized.
    const clibcurl_api *api = clibcurl();
    if (api->status != 0) { fprintf(stderr, "%s: status %d %s\n", clibcurl_soname(), api->status, api->missing_symbol ? api->missing_symbol : ""); return 1; }
    printf("CLibCurl: %d constants, CURLMsg's layout, 6 types and 15 functions match curl %s\n", 53, LIBCURL_VERSION);
    return 0;
}
