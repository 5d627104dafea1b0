// The parts of libcurl (7.85 or later) that SessionService's Linux transport uses: easy handles
// driven by one multi handle. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call, so each argument type the transport passes gets a typed wrapper here.
#ifndef SESSION_SERVICE_CLIBCURL_SHIM_H
#define SESSION_SERVICE_CLIBCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode clibcurl_global_init(void) { return curl_global_init(CURL_GLOBAL_ALL); }

static inline CURLcode clibcurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode clibcurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode clibcurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode clibcurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode clibcurl_setopt_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}
static inline CURLcode clibcurl_setopt_write_function(CURL *handle, curl_write_callback function) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode clibcurl_setopt_header_function(CURL *handle, curl_write_callback function) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
}
static inline CURLMcode clibcurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLcode clibcurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

// CURLMsg's result sits in a union Swift reads awkwardly.
static inline CURLcode clibcurl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
