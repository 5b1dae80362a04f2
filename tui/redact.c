/* redact: see redact.h. */
#include "tui/redact.h"

#include <stdio.h>
#include <string.h>

#include "data/store/store_anon.h"
#include "reports/anon.h"
#include "tui/app.h"

static void add_other(void *ctx, const char *kind, const char *name)
{
    (void)kind;
    anon_scrub_add(ctx, name, "(name)");
}

/* The site key for the labels (#29: pseudonyms drawn from the key, as the
 * exports', never ranks an attacker with the roster could undo): the
 * database's; a database without one (read-only) gets a random key for
 * this session (labels then differ from the exports', still keyed). */
static void ensure_key(TuiState *s)
{
    if (anon_has_key())
        return;
    unsigned char key[STORE_ANON_KEY_BYTES];
    CpErr err;
    if (s->store && store_anon_key(s->store, 1, key, &err) == 0) {
        anon_set_key(key, sizeof key);
        return;
    }
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(key, 1, sizeof key, f) : 0;
    if (f)
        fclose(f);
    if (got == sizeof key)
        anon_set_key(key, sizeof key);
}

void tui_redact_build(TuiState *s)
{
    tui_redact_free(s);
    ensure_key(s);
    AnonScrub *a = anon_scrub_new();
    const TuiModel *m = s->model;
    char buf[64];
    for (int g = 0; m && g < m->ngroups; g++) {
        if (m->groups[g].pseudo)
            continue;
        anon_scrub_add(a, m->groups[g].name, tui_model_group_label(m, g, 1, buf, sizeof buf));
        if (m->groups[g].professor)
            anon_scrub_add(a, m->groups[g].professor,
                           tui_model_prof_label(m, g, 1, buf, sizeof buf));
    }
    for (int u = 0; m && u < m->nusers; u++)
        anon_scrub_add(a, m->users[u].name, tui_model_user_label(m, u, 1, buf, sizeof buf));
    CpErr err;
    if (s->store)
        store_anon_names(s->store, add_other, a, &err); /* best effort: the model's are in */
    s->scrub = a;
}

const char *tui_redact_filter(const void *ctx, const char *str, char *buf, size_t n)
{
    return anon_scrub_buf(ctx, str, buf, n);
}

void tui_redact_free(TuiState *s)
{
    anon_scrub_free(s->scrub);
    s->scrub = NULL;
}
