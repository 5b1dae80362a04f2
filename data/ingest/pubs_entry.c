/* pubs_entry: see pubs_entry.h. */
#include "data/ingest/pubs_entry.h"

#include <ctype.h>
#include <stdio.h>

int pubs_put(PubsCtx *c, const PubRec *p, CpErr *err)
{
    PubRec q = *p;
    q.source = c->name;
    int rc = store_pubs_put(c->sp, c->import_id, &q, err);
    if (rc < 0)
        return -1;
    if (rc > 0)
        c->res->added++;
    else
        c->res->unchanged++;
    return 0;
}

int pubs_reject(PubsCtx *c, int64_t line, const char *field, const char *reason, CpErr *err)
{
    char why[CP_ERR_MAX];
    snprintf(why, sizeof why, "%s", reason);
    return reader_reject(&c->rc, err, line, field, why);
}

int pubs_year(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    int y = 0, n = 0;
    for (; isdigit((unsigned char)*s); s++, n++)
        y = y * 10 + (*s - '0');
    while (isspace((unsigned char)*s))
        s++;
    return n == 4 && *s == '\0' && y >= 1900 && y <= 2100 ? y : -1;
}
