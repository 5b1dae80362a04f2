#include "cli/status_research.h"

#include "cli/cli.h"
#include "cli/textcol.h"
#include "core/utf8.h"

void status_research_json(cJSON *o, const ResearchData *d)
{
    cJSON_AddNumberToObject(o, "papers", d->npapers);
    cJSON_AddNumberToObject(o, "author_slots", (double)d->slots);
    cJSON_AddNumberToObject(o, "author_slots_matched", (double)d->matched);
    cJSON_AddNumberToObject(o, "unmatched_authors", d->nunmatched);
    cJSON *a = cJSON_AddArrayToObject(o, "unmatched");
    for (int i = 0; i < d->nunmatched; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", d->unmatched[i].name);
        cJSON_AddNumberToObject(e, "papers", d->unmatched[i].papers);
        cJSON_AddItemToArray(a, e);
    }
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
    int shown = d->nunmatched < STATUS_UNMATCHED_SHOWN ? d->nunmatched : STATUS_UNMATCHED_SHOWN;
    int w = 40; /* the names' column: 40 display columns, or the widest shown */
    for (int i = 0; i < shown; i++)
        if (utf8_width(d->unmatched[i].name) > w)
            w = utf8_width(d->unmatched[i].name);
    for (int i = 0; i < shown; i++) {
        fputs("  ", out);
        textcol_put(out, d->unmatched[i].name, w, 0);
        fprintf(out, " %5d paper%s\n", d->unmatched[i].papers,
                d->unmatched[i].papers == 1 ? "" : "s");
    }
    if (d->nunmatched > STATUS_UNMATCHED_SHOWN)
        fprintf(out, "  ... %d more (capplan status --json lists them all)\n",
                d->nunmatched - STATUS_UNMATCHED_SHOWN);
}
