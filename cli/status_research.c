#include "cli/status_research.h"

#include "cli/cli.h"

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
    char name[256];
    fprintf(out, "papers       %12d  (%d with a roster author)\n", d->npapers, d->papers_matched);
    fprintf(out, "authors      %12lld slots, %lld matched to the roster\n", (long long)d->slots,
            (long long)d->matched);
    fprintf(out, "unmatched    %12d authors (not in the roster's names or aliases)\n",
            d->nunmatched);
    for (int i = 0; i < d->nunmatched && i < STATUS_UNMATCHED_SHOWN; i++) {
        cli_sanitize(name, sizeof name, d->unmatched[i].name);
        fprintf(out, "  %-40s %5d paper%s\n", name, d->unmatched[i].papers,
                d->unmatched[i].papers == 1 ? "" : "s");
    }
    if (d->nunmatched > STATUS_UNMATCHED_SHOWN)
        fprintf(out, "  ... %d more (capplan status --json lists them all)\n",
                d->nunmatched - STATUS_UNMATCHED_SHOWN);
}
