/* store_feed: see store_feed.h. */
#include "data/store/store_feed.h"

#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

struct StoreFeed {
    StoreAttempt *ring; /* the window: ids first .. first + n - 1 */
    size_t cap;         /* its size */
    int64_t first;      /* id of the oldest attempt held */
    size_t head, n;     /* ring index of the oldest, attempts held */
    int64_t fed_lo, fed_hi; /* ids inserted so far; fed_lo > fed_hi: none */
    int off;            /* ended, or an insert the feed could not order */
    StoreFeedSink sinks[STORE_FEED_SINKS];
    int nsinks;
    StrMap *types; /* GPU type name -> index in names */
    char **names;
    size_t nnames;
    const char *last_type; /* the last name interned */
};

StoreFeed *store_feed_new(size_t window)
{
    StoreFeed *f = xcalloc(1, sizeof *f);
    f->cap = window > 0 ? window : 1;
    f->fed_lo = 1;
    f->types = strmap_new();
    return f;
}

void store_feed_free(StoreFeed *f)
{
    if (!f)
        return;
    free(f->ring);
    strmap_free(f->types);
    for (size_t i = 0; i < f->nnames; i++)
        free(f->names[i]);
    free(f->names);
    free(f);
}

void store_feed_sink(StoreFeed *f, StoreFeedSink s)
{
    if (f->nsinks < STORE_FEED_SINKS)
        f->sinks[f->nsinks++] = s;
}

/* The feed's copy of GPU type name t (most attempts name the last one). */
static const char *intern(StoreFeed *f, const char *t)
{
    if (f->last_type && strcmp(f->last_type, t) == 0)
        return f->last_type;
    size_t len = strlen(t);
    int64_t i;
    if (!strmap_get(f->types, t, len, &i)) {
        f->names = xrealloc(f->names, (f->nnames + 1) * sizeof *f->names);
        f->names[f->nnames] = xstrdup(t);
        i = (int64_t)f->nnames++;
        strmap_put(f->types, t, len, i);
    }
    return f->last_type = f->names[i];
}

static void tell_changed(StoreFeed *f, int64_t id)
{
    for (int s = 0; s < f->nsinks; s++)
        if (f->sinks[s].changed)
            f->sinks[s].changed(f->sinks[s].ctx, id);
}

/* The held attempt with this id, NULL when it is not held. */
static StoreAttempt *held(StoreFeed *f, int64_t id)
{
    if (id < f->first || id >= f->first + (int64_t)f->n)
        return NULL;
    size_t i = f->head + (size_t)(id - f->first);
    return &f->ring[i < f->cap ? i : i - f->cap];
}

/* The oldest attempt held, to every sink. */
static int emit_oldest(StoreFeed *f, CpErr *err)
{
    const StoreAttempt *a = &f->ring[f->head];
    for (int s = 0; s < f->nsinks; s++)
        if (f->sinks[s].put(f->sinks[s].ctx, a, err) < 0)
            return -1;
    f->head = f->head + 1 < f->cap ? f->head + 1 : 0;
    f->first++;
    f->n--;
    return 0;
}

int store_feed_insert(StoreFeed *f, const StoreAttempt *a, CpErr *err)
{
    if (f->off) {
        tell_changed(f, 0);
        return 0;
    }
    if (f->fed_lo <= f->fed_hi && a->id != f->fed_hi + 1) {
        /* rowids out of step: the sinks stop trusting what they built */
        tell_changed(f, 0);
        return store_feed_end(f, err);
    }
    if (!f->ring)
        f->ring = xmalloc(f->cap * sizeof *f->ring);
    if (f->n == f->cap && emit_oldest(f, err) < 0)
        return -1;
    if (f->n == 0)
        f->first = a->id;
    if (f->fed_lo > f->fed_hi)
        f->fed_lo = a->id;
    f->fed_hi = a->id;
    size_t i = f->head + f->n++;
    StoreAttempt *slot = &f->ring[i < f->cap ? i : i - f->cap];
    *slot = *a;
    slot->gpu_type = intern(f, a->gpu_type);
    return 0;
}

/* Was attempt id handed on already (so a change to it reaches the sinks
 * as `changed`)? */
static int gone(const StoreFeed *f, int64_t id)
{
    return id >= f->fed_lo && id <= f->fed_hi;
}

void store_feed_update(StoreFeed *f, const StoreAttempt *a)
{
    StoreAttempt *h = held(f, a->id);
    if (!h) {
        if (gone(f, a->id))
            tell_changed(f, a->id);
        return;
    }
    int final = h->final;
    *h = *a;
    h->final = final;
    h->gpu_type = intern(f, a->gpu_type);
}

void store_feed_unfinal(StoreFeed *f, int64_t id)
{
    StoreAttempt *h = held(f, id);
    if (h)
        h->final = 0;
    else if (gone(f, id))
        tell_changed(f, id);
}

void store_feed_spoil(StoreFeed *f)
{
    tell_changed(f, 0);
}

int store_feed_end(StoreFeed *f, CpErr *err)
{
    if (f->off)
        return 0;
    f->off = 1;
    while (f->n > 0)
        if (emit_oldest(f, err) < 0)
            return -1;
    free(f->ring); /* what the import keeps is written next: less at the peak */
    f->ring = NULL;
    for (int s = 0; s < f->nsinks; s++)
        if (f->sinks[s].done && f->sinks[s].done(f->sinks[s].ctx, err) < 0)
            return -1;
    return 0;
}
