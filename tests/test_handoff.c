/* core/handoff: the queue that takes the statistics' per-attempt work to
 * a thread of its own (data/store/store_stats_feed.c): items come out in the
 * order they went in, a bounded queue never lets the producer run ahead
 * by more than its capacity, a full or empty queue's waiter returns when
 * the queue is stopped, and what was left in it can still be polled out
 * (to be freed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <pthread.h>

#include <cmocka.h>

#include "core/handoff.h"

/* Item i as a pointer (never NULL). */
static void *item(uintptr_t i)
{
    return (void *)(i + 1);
}

static uintptr_t index_of(void *p)
{
    return (uintptr_t)p - 1;
}

static void nap_ms(long ms)
{
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

typedef struct Producer {
    Handoff *h;
    uintptr_t count;
    atomic_size_t puts; /* puts returned 0 */
    int last_rc;        /* what the last put returned */
} Producer;

static void *produce(void *arg)
{
    Producer *p = arg;
    for (uintptr_t i = 0; i < p->count; i++) {
        p->last_rc = handoff_put(p->h, item(i));
        if (p->last_rc < 0)
            return NULL;
        atomic_fetch_add(&p->puts, 1);
    }
    handoff_close(p->h);
    return NULL;
}

/* Wait until the producer has made n puts. */
static void wait_puts(Producer *p, size_t n)
{
    while (atomic_load(&p->puts) < n)
        nap_ms(1);
}

/* 50,000 items through a queue of 3 between two threads: in order, and
 * when the consumer has taken k items the producer has made at most k + 3
 * puts. */
static void test_order_and_bound(void **state)
{
    (void)state;
    Producer p = {handoff_new(3), 50000, 0, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, produce, &p), 0);
    uintptr_t taken = 0;
    void *it;
    while ((it = handoff_take(p.h))) {
        assert_int_equal(index_of(it), taken);
        taken++;
        assert_true(atomic_load(&p.puts) <= taken + 3);
    }
    pthread_join(th, NULL);
    assert_int_equal(taken, 50000);
    assert_int_equal(atomic_load(&p.puts), 50000);
    assert_null(handoff_take(p.h)); /* closed and empty: at once */
    handoff_free(p.h);
}

/* A producer waiting on a full queue: it stays at the capacity until an
 * item is taken, and returns -1 when the queue is stopped; the items left
 * are still polled out in order, and a later put is refused. */
static void test_stop_while_full(void **state)
{
    (void)state;
    Producer p = {handoff_new(2), 10, 0, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, produce, &p), 0);
    wait_puts(&p, 2);
    nap_ms(20);
    assert_int_equal(atomic_load(&p.puts), 2); /* the third put waits */
    assert_int_equal(index_of(handoff_poll(p.h)), 0);
    wait_puts(&p, 3);
    nap_ms(20);
    assert_int_equal(atomic_load(&p.puts), 3); /* the fourth waits */
    handoff_stop(p.h);
    pthread_join(th, NULL);
    assert_int_equal(p.last_rc, -1);
    assert_int_equal(atomic_load(&p.puts), 3);
    assert_null(handoff_take(p.h)); /* stopped: take gives nothing */
    assert_int_equal(index_of(handoff_poll(p.h)), 1); /* poll drains it */
    assert_int_equal(index_of(handoff_poll(p.h)), 2);
    assert_null(handoff_poll(p.h));
    assert_int_equal(handoff_put(p.h, item(9)), -1);
    assert_null(handoff_poll(p.h));
    handoff_free(p.h);
}

typedef struct Consumer {
    Handoff *h;
    void *got;
    atomic_int waiting, back;
} Consumer;

static void *consume_one(void *arg)
{
    Consumer *c = arg;
    atomic_store(&c->waiting, 1);
    c->got = handoff_take(c->h);
    atomic_store(&c->back, 1);
    return NULL;
}

/* A consumer waiting on an empty queue returns NULL when it is stopped,
 * and when it is closed. */
static void test_stop_and_close_while_empty(void **state)
{
    (void)state;
    for (int how = 0; how < 2; how++) {
        Consumer c = {handoff_new(4), item(7), 0, 0};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, consume_one, &c), 0);
        while (!atomic_load(&c.waiting))
            nap_ms(1);
        nap_ms(20);
        assert_int_equal(atomic_load(&c.back), 0); /* still waiting */
        if (how == 0)
            handoff_stop(c.h);
        else
            handoff_close(c.h);
        pthread_join(th, NULL);
        assert_null(c.got);
        handoff_free(c.h);
    }
}

/* An unbounded queue grows, wrapped around or not, keeping the order; a
 * closed queue gives its items, then NULL. */
static void test_unbounded_grows_in_order(void **state)
{
    (void)state;
    Handoff *h = handoff_new(0);
    uintptr_t next_in = 0, next_out = 0;
    for (int round = 0; round < 5; round++) { /* 5 in, 3 out: the ring wraps as it grows */
        for (int i = 0; i < 5; i++)
            assert_int_equal(handoff_put(h, item(next_in++)), 0);
        for (int i = 0; i < 3; i++)
            assert_int_equal(index_of(handoff_poll(h)), next_out++);
    }
    for (int i = 0; i < 1000; i++)
        assert_int_equal(handoff_put(h, item(next_in++)), 0);
    handoff_close(h);
    void *it;
    while ((it = handoff_take(h)))
        assert_int_equal(index_of(it), next_out++);
    assert_int_equal(next_out, 1025);
    assert_int_equal(next_in, 1025);
    handoff_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_bound),
        cmocka_unit_test(test_stop_while_full),
        cmocka_unit_test(test_stop_and_close_while_empty),
        cmocka_unit_test(test_unbounded_grows_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
