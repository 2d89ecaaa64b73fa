#include "CCurlShims.h"

CURLcode qw_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode qw_curl_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode qw_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode qw_curl_easy_setopt_write_cb(CURL *handle, CURLoption option,
                                      size_t (*cb)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, option, cb);
}
CURLcode qw_curl_easy_setopt_xferinfo_cb(CURL *handle,
                                         int (*cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, cb);
}
CURLcode qw_curl_easy_setopt_sockopt_cb(CURL *handle, int (*cb)(void *, curl_socket_t, curlsocktype)) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, cb);
}
CURLcode qw_curl_easy_setopt_closesocket_cb(CURL *handle, int (*cb)(void *, curl_socket_t)) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, cb);
}
CURLcode qw_curl_easy_setopt_debug_cb(CURL *handle, int (*cb)(CURL *, curl_infotype, char *, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, cb);
}
CURLcode qw_curl_easy_setopt_opensocket_cb(CURL *handle,
                                           curl_socket_t (*cb)(void *, curlsocktype, struct curl_sockaddr *)) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, cb);
}

CURLcode qw_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode qw_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode qw_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode qw_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode qw_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode qw_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
CURLMcode qw_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, const void *value) {
    return curl_multi_setopt(multi, option, value);
}
CURLMcode qw_curl_multi_setopt_socket_cb(CURLM *multi, int (*cb)(CURL *, curl_socket_t, int, void *, void *)) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, cb);
}
CURLMcode qw_curl_multi_setopt_timer_cb(CURLM *multi, int (*cb)(CURLM *, long, void *)) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, cb);
}

#ifdef __linux__
#include <sys/eventfd.h>
int qw_eventfd_nonblocking(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
#endif
