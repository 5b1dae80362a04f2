#ifndef STORE_SCHEMA_H
#define STORE_SCHEMA_H
/* store_schema: the SQL text of each schema version, applied in order by
 * store_open. Private to the store_*.c files. Version N's script takes a
 * database at user_version N-1 to N; a released script is never edited. */

extern const char *const store_migrations[];
extern const int store_nmigrations;

#endif
