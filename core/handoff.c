/* handoff: see handoff.h. */
#include "core/handoff.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#include "core/cp.h"

struct Handoff {
    pthread_mutex_t mu;
    pthread_cond_t changed; /* an item came or went, or the queue closed or stopped */
    void **ring;            /* items head .. head + n - 1, modulo size */
    size_t size, head, n;
    size_t cap;             /* 0: grows */
    int closed, stopped;
};

Handoff *handoff_new(size_t cap)
{
    Handoff *h = xcalloc(1, sizeof *h);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->changed, NULL);
    h->cap = cap;
    h->size = cap ? cap : 8;
    h->ring = xmalloc(h->size * sizeof *h->ring);
    return h;
}

void handoff_free(Handoff *h)
{
    if (!h)
        return;
    pthread_cond_destroy(&h->changed);
    pthread_mutex_destroy(&h->mu);
    free(h->ring);
    free(h);
}

/* An unbounded queue's ring twice as large, its items in order from 0. */
static void grow(Handoff *h)
{
    void **ring = xmalloc(2 * h->size * sizeof *ring);
    for (size_t i = 0; i < h->n; i++)
        ring[i] = h->ring[(h->head + i) % h->size];
    free(h->ring);
    h->ring = ring;
    h->head = 0;
    h->size *= 2;
}

int handoff_put(Handoff *h, void *item)
{
    assert(item);
    pthread_mutex_lock(&h->mu);
    while (h->cap && h->n == h->cap && !h->stopped)
        pthread_cond_wait(&h->changed, &h->mu);
    int stopped = h->stopped;
    if (!stopped) {
        if (h->n == h->size)
            grow(h);
        h->ring[(h->head + h->n++) % h->size] = item;
        pthread_cond_broadcast(&h->changed);
    }
    pthread_mutex_unlock(&h->mu);
    return stopped ? -1 : 0;
}

/* The oldest item (the lock held), or NULL when empty. */
static void *pop(Handoff *h)
{
    if (h->n == 0)
        return NULL;
    void *item = h->ring[h->head];
    h->head = (h->head + 1) % h->size;
    h->n--;
    pthread_cond_broadcast(&h->changed);
    return item;
}

void *handoff_take(Handoff *h)
{
    pthread_mutex_lock(&h->mu);
    while (h->n == 0 && !h->closed && !h->stopped)
        pthread_cond_wait(&h->changed, &h->mu);
    void *item = h->stopped ? NULL : pop(h);
    pthread_mutex_unlock(&h->mu);
    return item;
}

void *handoff_poll(Handoff *h)
{
    pthread_mutex_lock(&h->mu);
    void *item = pop(h);
    pthread_mutex_unlock(&h->mu);
    return item;
}

void handoff_close(Handoff *h)
{
    pthread_mutex_lock(&h->mu);
    h->closed = 1;
    pthread_cond_broadcast(&h->changed);
    pthread_mutex_unlock(&h->mu);
}

void handoff_stop(Handoff *h)
{
    pthread_mutex_lock(&h->mu);
    h->stopped = 1;
    pthread_cond_broadcast(&h->changed);
    pthread_mutex_unlock(&h->mu);
}
