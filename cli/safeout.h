#ifndef SAFEOUT_H
#define SAFEOUT_H
/* safeout: the command line's one safe writer for terminal text (#29).
 * A command prints its text report into a SafeOut's stream as it likes;
 * safeout_flush then writes it to the real output with everything from
 * data made harmless: every byte that is not printable UTF-8 (C0 controls
 * but the line feed, DEL, C1, ESC sequences, bytes that are not UTF-8)
 * becomes '?' (reports/rtext's rule, the CSV and Markdown writers' too).
 * CSV cells go through reports/csvw (csvw_text), the one CSV writer. */

#include <stddef.h>
#include <stdio.h>

typedef struct SafeOut {
    FILE *f;    /* print here; NULL when the stream could not be made */
    char *buf;  /* owned, freed by safeout_flush */
    size_t len;
} SafeOut;

/* Start a stream; returns the FILE* to print into (real when no memory
 * stream can be made: then the text goes out unfiltered, never lost). */
FILE *safeout_begin(SafeOut *so, FILE *real);

/* Write what was printed, made safe, to real, and free it. Returns 0, -1
 * on a write error. */
int safeout_flush(SafeOut *so, FILE *real);

/* Write the n bytes of text at s made safe (as above) to out. */
void safeout_text(FILE *out, const char *s, size_t n);

#endif
