#ifndef CP_H
#define CP_H
/* cp: the few things every module shares: the error record filled by
 * functions that can fail recoverably, and allocation that aborts on
 * out-of-memory (a bug-class condition, never recovered from).
 * No I/O beyond the abort message, no curses, no SQLite. */

#include <stddef.h>
#include <stdint.h>

#define CP_ERR_MAX 512

/* A recoverable failure, filled by the callee, owned by the caller.
 * msg reads like "jobs.txt:1234: field Elapsed: bad duration '1-2x:00'". */
typedef struct CpErr {
    char msg[CP_ERR_MAX];
} CpErr;

/* Fill err (if not NULL) with a printf-style message; returns -1 so that
 * callers can write `return cp_err_set(err, ...)`. */
int cp_err_set(CpErr *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Turn err's message into "prefix: message" (truncated to fit). */
void cp_err_prefix(CpErr *err, const char *prefix);

/* Allocation that never returns NULL: prints and aborts on OOM. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Caller frees with free(). */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Growable byte buffer; embedded, _init/_done. */
typedef struct CpBuf {
    char *data;
    size_t len;
    size_t cap;
} CpBuf;

void cpbuf_init(CpBuf *b);
void cpbuf_done(CpBuf *b);
void cpbuf_reserve(CpBuf *b, size_t extra);
void cpbuf_append(CpBuf *b, const void *p, size_t n);
/* Keeps data NUL-terminated after every append. */
void cpbuf_clear(CpBuf *b);

#endif
