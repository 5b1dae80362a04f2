/* censored_print: see censored_print.h. */
#include "cli/censored_print.h"

#include "core/civil.h"

static const char *utc(int64_t t, char *buf, size_t n)
{
    fields_iso(t, buf, n - 1);
    size_t k = 0;
    while (buf[k])
        k++;
    buf[k] = 'Z';
    buf[k + 1] = '\0';
    return buf;
}

void censored_text(const StoreCensored *c, const char *scope, FILE *out)
{
    char a[32], b[32];
    if (c->runs <= 0)
        return;
    if (c->first_cut == c->last_cut)
        fprintf(out, "censored: %lld runs%s still going when their file was written, counted up "
                     "to %s (their hours are a lower bound)\n",
                (long long)c->runs, scope, utc(c->last_cut, a, sizeof a));
    else
        fprintf(out, "censored: %lld runs%s still going when their file was written, counted up "
                     "to %s .. %s (their hours are a lower bound)\n",
                (long long)c->runs, scope, utc(c->first_cut, a, sizeof a),
                utc(c->last_cut, b, sizeof b));
}

void censored_json(cJSON *o, const StoreCensored *c)
{
    char a[32];
    cJSON *e = cJSON_AddObjectToObject(o, "censored");
    cJSON_AddNumberToObject(e, "runs", (double)c->runs);
    if (c->runs > 0) {
        cJSON_AddStringToObject(e, "first_cut", utc(c->first_cut, a, sizeof a));
        cJSON_AddStringToObject(e, "last_cut", utc(c->last_cut, a, sizeof a));
    } else {
        cJSON_AddNullToObject(e, "first_cut");
        cJSON_AddNullToObject(e, "last_cut");
    }
}
