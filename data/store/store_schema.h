#ifndef STORE_SCHEMA_H
#define STORE_SCHEMA_H
/* store_schema: the SQL text of each schema version, applied in order by
 * store_open. Private to the store_*.c files. Version N's script takes a
 * database at user_version N-1 to N; a released script is never edited. */

extern const char *const store_migrations[];
extern const int store_nmigrations;

/* A job row's CPUs exactly (#29): the thousandths when the input gave a
 * fraction, else the whole CPUs; NULL unknown. */
#define STORE_CPUS_SQL "coalesce(cpu_milli / 1000.0, ncpus)"
/* ... in thousandths (an integer). */
#define STORE_CPU_MILLI_SQL "coalesce(cpu_milli, ncpus * 1000)"

#endif
