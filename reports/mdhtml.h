#ifndef MDHTML_H
#define MDHTML_H
/* mdhtml: the report's Markdown as one self-contained HTML5 file, for mail
 * and for print. It reads the subset the report writes (reports/mdw,
 * reports/mdfit) and nothing more: a YAML title block (title, subtitle,
 * date: plain strings), ATX headings, paragraphs, "- " bullet lists, pipe
 * tables with their alignment, images alone on a line, and inline
 * backslash escapes, **strong** and `code`. Everything else is text:
 * every character reaches the page escaped for HTML, so no markup from
 * data can get through. An image whose destination is an .svg file is
 * read from base/destination and put inline (less its XML declaration);
 * the page then needs no other file. */

#include <stddef.h>
#include <stdio.h>

#include "core/cp.h"

/* The report's style sheet: A4 portrait, compact tables. Static. */
const char *mdhtml_css(void);

/* Convert md (len bytes) to a whole HTML5 document on out. base: the
 * folder image destinations are relative to. 0, or -1 with err when an
 * image cannot be read. */
int mdhtml(FILE *out, const char *md, size_t len, const char *base, CpErr *err);

#endif
