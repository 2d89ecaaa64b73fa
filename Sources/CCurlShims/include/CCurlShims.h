#ifndef C_CURL_SHIMS_H
#define C_CURL_SHIMS_H

#include <curl/curl.h>

/* Typed, non-variadic forms of libcurl's variadic setters and getters, one per argument type,
 * so that Swift can call them. */

CURLcode qw_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode qw_curl_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value);
CURLcode qw_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode qw_curl_easy_setopt_write_cb(CURL *handle, CURLoption option,
                                      size_t (*cb)(char *, size_t, size_t, void *));
CURLcode qw_curl_easy_setopt_xferinfo_cb(CURL *handle,
                                         int (*cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode qw_curl_easy_setopt_sockopt_cb(CURL *handle, int (*cb)(void *, curl_socket_t, curlsocktype));
CURLcode qw_curl_easy_setopt_closesocket_cb(CURL *handle, int (*cb)(void *, curl_socket_t));
CURLcode qw_curl_easy_setopt_debug_cb(CURL *handle, int (*cb)(CURL *, curl_infotype, char *, size_t, void *));
CURLcode qw_curl_easy_setopt_opensocket_cb(CURL *handle,
                                           curl_socket_t (*cb)(void *, curlsocktype, struct curl_sockaddr *));

CURLcode qw_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode qw_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode qw_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode qw_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode qw_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value);

/* libcurl's CURLAUTH_* are cast macros, which Swift does not import. */
static const unsigned long QW_CURLAUTH_BASIC = CURLAUTH_BASIC;
static const unsigned long QW_CURLAUTH_DIGEST = CURLAUTH_DIGEST;
static const unsigned long QW_CURLAUTH_NTLM = CURLAUTH_NTLM;
static const unsigned long QW_CURLAUTH_NEGOTIATE = CURLAUTH_NEGOTIATE;
static const unsigned long QW_CURLAUTH_ANY = CURLAUTH_ANY;

CURLMcode qw_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode qw_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, const void *value);
CURLMcode qw_curl_multi_setopt_socket_cb(CURLM *multi, int (*cb)(CURL *, curl_socket_t, int, void *, void *));
CURLMcode qw_curl_multi_setopt_timer_cb(CURLM *multi, int (*cb)(CURLM *, long, void *));

#ifdef __linux__
#include <sys/epoll.h>
/* Swift's Glibc module has neither epoll nor eventfd: the client's loop waits on both. A non-blocking,
 * close-on-exec eventfd (the loop's doorbell), or -1 with errno set. */
int qw_eventfd_nonblocking(void);
#endif

#endif
