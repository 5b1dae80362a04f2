/* The reference GPU catalog compiled into capplan (data/ingest/catalog_ref.csv,
 * #33): every row parses, the figures are the file's, no end-of-life model
 * (V100, A100, A40) is on it; an imported catalog replaces it
 * (catalog_effective). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "data/ingest/catalog.h"
#include "data/store/store.h"
#include "tests/lib/testutil.h"

static const CatalogGpu *find(const CatalogGpu *v, size_t n, const char *model)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].model, model) == 0)
            return &v[i];
    return NULL;
}

static void test_builtin(void **state)
{
    (void)state;
    CatalogGpu *v;
    size_t n;
    assert_int_equal(catalog_builtin(&v, &n), 0);
    assert_int_equal(n, 7);
    const CatalogGpu *h = find(v, n, "h100-sxm");
    assert_non_null(h);
    assert_true(h->mem_gib == 80 && h->relative_speed == 7.9 && h->tdp_w == 700 &&
                h->price == 32500);
    assert_string_equal(h->currency, "USD");
    const CatalogGpu *l = find(v, n, "l40s");
    assert_non_null(l);
    assert_true(l->mem_gib == 48 && l->relative_speed == 2.9 && l->price == -1);
    assert_true(find(v, n, "b200")->price == 35000);
    assert_null(find(v, n, "v100"));
    assert_null(find(v, n, "a100"));
    assert_null(find(v, n, "a40"));
    assert_string_equal(catalog_builtin_date(), "2026-11");
    catalog_free(v, n);
}

static void test_effective(void **state)
{
    (void)state;
    char *db = tu_temp_path(".db");
    static const char text[] = "# a site's quote\nmodel,mem_gib,relative_speed,tdp_w,price,currency\n"
                               "h200-nvl,141,6.7,600,31000,EUR\n";
    char *csv = tu_write_temp(text, sizeof text - 1);
    CpErr err;
    Store *st = store_open(db, &err);
    assert_non_null(st);
    CatalogGpu *v;
    size_t n;
    int builtin;
    assert_int_equal(catalog_effective(st, &v, &n, &builtin, &err), 0);
    assert_int_equal(builtin, 1);
    assert_int_equal(n, 7);
    catalog_free(v, n);
    ImportOpts o;
    memset(&o, 0, sizeof o);
    ImportResult r;
    assert_int_equal(catalog_import(st, csv, &o, &r, &err), 0);
    assert_int_equal(r.added, 1);
    assert_int_equal(catalog_effective(st, &v, &n, &builtin, &err), 0);
    assert_int_equal(builtin, 0);
    assert_int_equal(n, 1);
    assert_string_equal(v[0].model, "h200-nvl");
    assert_true(v[0].price == 31000);
    catalog_free(v, n);
    store_close(st);
    remove(csv);
    free(csv);
    tu_remove_db(db);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_effective),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
