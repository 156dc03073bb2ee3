/* asan.h: DL_ASAN is 1 when the code is built with AddressSanitizer (gcc's
 * __SANITIZE_ADDRESS__, clang's __has_feature), else 0: code that manages
 * memory or signals itself steps aside under it. */
#ifndef GDLOG_ASAN_H
#define GDLOG_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define DL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DL_ASAN 1
#endif
#endif
#ifndef DL_ASAN
#define DL_ASAN 0
#endif

#endif
