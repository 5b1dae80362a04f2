#include "cli/status_research.h"

#include "cli/cli.h"
#include "cli/textcol.h"
#include "core/utf8.h"

static void names_json(cJSON *o, const char *key, const RsUnmatched *l, int n)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    for (int i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", l[i].name);
        cJSON_AddNumberToObject(e, "papers", l[i].papers);
        cJSON_AddItemToArray(a, e);
    }
}

void status_research_json(cJSON *o, const ResearchData *d)
{
    cJSON_AddNumberToObject(o, "papers", d->npapers);
    cJSON_AddNumberToObject(o, "rows_merged", d->rows_merged);
    cJSON_AddNumberToObject(o, "author_slots", (double)d->slots);
    cJSON_AddNumberToObject(o, "author_slots_matched", (double)d->matched);
    cJSON_AddNumberToObject(o, "author_slots_ambiguous", (double)d->slots_ambiguous);
    cJSON_AddNumberToObject(o, "unmatched_authors", d->nunmatched);
    cJSON_AddNumberToObject(o, "ambiguous_authors", d->nambiguous);
    names_json(o, "unmatched", d->unmatched, d->nunmatched);
    names_json(o, "ambiguous", d->ambiguous, d->nambiguous);
}

/* The first STATUS_UNMATCHED_SHOWN names of l, and how many more. */
static void names_text(FILE *out, const RsUnmatched *l, int n)
{
    int shown = n < STATUS_UNMATCHED_SHOWN ? n : STATUS_UNMATCHED_SHOWN;
    int w = 40; /* the names' column: 40 display columns, or the widest shown */
    for (int i = 0; i < shown; i++)
        if (utf8_width(l[i].name) > w)
            w = utf8_width(l[i].name);
    for (int i = 0; i < shown; i++) {
        fputs("  ", out);
        textcol_put(out, l[i].name, w, 0);
        fprintf(out, " %5d paper%s\n", l[i].papers, l[i].papers == 1 ? "" : "s");
    }
    if (n > STATUS_UNMATCHED_SHOWN)
        fprintf(out, "  ... %d more (capplan status --json lists them all)\n",
                n - STATUS_UNMATCHED_SHOWN);
}

void status_research_text(FILE *out, const ResearchData *d)
{
    if (d->npapers == 0)
        return;
    fprintf(out, "papers       %12d  (%d with a roster author)\n", d->npapers, d->papers_matched);
    fprintf(out, "authors      %12lld slots, %lld matched to the roster\n", (long long)d->slots,
            (long long)d->matched);
    fprintf(out, "unmatched    %12d authors (not in the roster's names or aliases)\n",
            d->nunmatched);
    names_text(out, d->unmatched, d->nunmatched);
    if (d->nambiguous == 0)
        return;
    fprintf(out, "ambiguous    %12d names (several roster people; group, co-authors and roster "
                 "years do not tell which)\n", d->nambiguous);
    names_text(out, d->ambiguous, d->nambiguous);
}
