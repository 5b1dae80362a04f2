#ifndef HANDOFF_H
#define HANDOFF_H
/* handoff: a first-in first-out queue of pointers from one thread to
 * another (pthread mutex and condition variable). What is put is owned by
 * the queue until taken; the queue never frees an item. Bounded (a put
 * waits while it is full: the producer cannot run ahead of the consumer by
 * more than its capacity) or not. No I/O. */

#include <stddef.h>

typedef struct Handoff Handoff;

/* An empty open queue holding at most cap items (0: any number). Caller
 * frees with handoff_free. */
Handoff *handoff_new(size_t cap);

/* Frees the queue, not the items still in it (take them first with
 * handoff_poll). No thread may be waiting on it. */
void handoff_free(Handoff *h);

/* Appends item (not NULL), waiting while the queue is full. 0, or -1 when
 * the queue is stopped (the item was not taken: the caller keeps it). */
int handoff_put(Handoff *h, void *item);

/* The oldest item, waiting while the queue is empty and open. NULL when
 * it is stopped, or closed and empty. */
void *handoff_take(Handoff *h);

/* The oldest item, or NULL when empty; never waits (a stopped queue still
 * gives what it holds, to be freed). */
void *handoff_poll(Handoff *h);

/* No item comes after those put: handoff_take gives them, then NULL. */
void handoff_close(Handoff *h);

/* Stops the queue: every waiting and later handoff_put and handoff_take
 * returns at once (-1, NULL). */
void handoff_stop(Handoff *h);

#endif
