/* core/strmap: strmap_del (linear probing with backward shift, no
 * tombstones) against a plain array of the keys present, and the map the
 * statistics feed keeps of a job's non-final attempts (data/store/store_stats.c
 * scan_earlier / forget_job): it empties as each job's final attempt comes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/strmap.h"

/* The scan's key: (cluster, job_raw). */
static void key_of(int64_t key[2], int64_t cluster, int64_t job)
{
    key[0] = cluster;
    key[1] = job;
}

static int has(const StrMap *m, int64_t cluster, int64_t job, int64_t *v)
{
    int64_t key[2];
    key_of(key, cluster, job);
    return strmap_get(m, (const char *)key, sizeof key, v);
}

static void put(StrMap *m, int64_t cluster, int64_t job, int64_t v)
{
    int64_t key[2];
    key_of(key, cluster, job);
    strmap_put(m, (const char *)key, sizeof key, v);
}

static int del(StrMap *m, int64_t cluster, int64_t job)
{
    int64_t key[2];
    key_of(key, cluster, job);
    return strmap_del(m, (const char *)key, sizeof key);
}

static void test_del_names(void **state)
{
    (void)state;
    StrMap *m = strmap_new();
    int64_t v = 0;
    strmap_put(m, "alice", 5, 1);
    strmap_put(m, "bob", 3, 2);
    strmap_put(m, "carol", 5, 3);
    assert_int_equal(strmap_del(m, "bob", 3), 1);
    assert_int_equal(strmap_count(m), 2);
    assert_int_equal(strmap_get(m, "bob", 3, &v), 0);
    assert_int_equal(strmap_del(m, "bob", 3), 0);
    assert_int_equal(strmap_del(m, "dave", 4), 0);
    assert_int_equal(strmap_get(m, "alice", 5, &v), 1);
    assert_int_equal(v, 1);
    assert_int_equal(strmap_get(m, "carol", 5, &v), 1);
    assert_int_equal(v, 3);
    strmap_put(m, "bob", 3, 7); /* back in, as a new key */
    assert_int_equal(strmap_count(m), 3);
    assert_int_equal(strmap_get(m, "bob", 3, &v), 1);
    assert_int_equal(v, 7);
    strmap_free(m);
}

#define NKEYS 3000
#define NOPS 200000

/* Puts and deletes drawn by a linear congruential generator over NKEYS
 * keys (the table grows to 4096 slots and runs long probe chains that
 * wrap around its end), each checked against an array of what is present;
 * every 997 operations every key is looked up. */
static void test_del_against_array(void **state)
{
    (void)state;
    static int present[NKEYS];
    static int64_t value[NKEYS];
    memset(present, 0, sizeof present);
    StrMap *m = strmap_new();
    uint64_t r = 12345;
    size_t count = 0;
    for (int64_t op = 0; op < NOPS; op++) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        int k = (int)((r >> 33) % NKEYS);
        int64_t v;
        if ((r >> 20) % 3 != 0) { /* two puts for one delete: the map fills up */
            count += !present[k];
            present[k] = 1;
            value[k] = op;
            put(m, k % 7, k, op);
        } else {
            assert_int_equal(del(m, k % 7, k), present[k]);
            count -= present[k];
            present[k] = 0;
        }
        assert_int_equal(strmap_count(m), count);
        assert_int_equal(has(m, k % 7, k, &v), present[k]);
        if (op % 997 == 0) {
            for (int i = 0; i < NKEYS; i++) {
                assert_int_equal(has(m, i % 7, i, &v), present[i]);
                if (present[i])
                    assert_int_equal(v, value[i]);
            }
        }
    }
    for (int i = 0; i < NKEYS; i++) /* then emptied, in key order */
        assert_int_equal(del(m, i % 7, i), present[i]);
    assert_int_equal(strmap_count(m), 0);
    for (int i = 0; i < NKEYS; i++) {
        int64_t v;
        assert_int_equal(has(m, i % 7, i, &v), 0);
    }
    strmap_free(m);
}

/* The feed's pattern: 100,000 jobs, job i's non-final attempt remembered
 * as it comes and forgotten when its final attempt comes 16 attempts
 * later: the map holds the 16 jobs between and ends empty. */
static void test_map_empties(void **state)
{
    (void)state;
    StrMap *m = strmap_new();
    size_t most = 0;
    for (int64_t i = 0; i < 100000 + 16; i++) {
        if (i < 100000)
            put(m, 1, i, i * 2);
        if (i >= 16) {
            int64_t v;
            assert_int_equal(has(m, 1, i - 16, &v), 1);
            assert_int_equal(v, (i - 16) * 2);
            assert_int_equal(del(m, 1, i - 16), 1);
        }
        if (strmap_count(m) > most)
            most = strmap_count(m);
    }
    assert_int_equal(most, 16); /* after each step: the 16 jobs waiting for their final */
    assert_int_equal(strmap_count(m), 0);
    strmap_free(m);
}

/* strmap_hash as it was defined (the import stores it: jobs.rec_hash), its
 * tail read byte by byte: the word reads give the same value for every
 * length and alignment (issue 31 item 3). */
static uint64_t hash_bytewise(uint64_t h, const unsigned char *s, size_t n)
{
    if (h == 0)
        h = 1469598103934665603ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 0; k < 8; k++)
            w |= (uint64_t)s[i + k] << (8 * k);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    uint64_t tail = 0;
    for (size_t k = 0; i + k < n; k++)
        tail |= (uint64_t)s[i + k] << (8 * k);
    h = (h ^ (tail ^ ((uint64_t)n << 56))) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static void test_hash_tails(void **state)
{
    (void)state;
    unsigned char buf[64];
    uint64_t x = 88172645463325252ULL; /* xorshift: bytes of every value */
    for (int round = 0; round < 200; round++)
        for (size_t off = 0; off < 8; off++)
            for (size_t n = 0; n + off <= 48; n++) {
                for (size_t k = 0; k < sizeof buf; k++) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    buf[k] = (unsigned char)x;
                }
                uint64_t h0 = round % 2 ? x : 0;
                assert_true(strmap_hash(h0, buf + off, n) == hash_bytewise(h0, buf + off, n));
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_del_names),
        cmocka_unit_test(test_del_against_array),
        cmocka_unit_test(test_map_empties),
        cmocka_unit_test(test_hash_tails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
