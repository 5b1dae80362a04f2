#ifndef STATUS_PRINT_H
#define STATUS_PRINT_H
/* status_print: `capplan status` as text or JSON, shared with `capplan
 * demo` (which shows it until the dashboard opens). */

#include <stdio.h>

typedef struct Store Store;

/* Prints to out; returns the exit status (0, or 1 after printing the error). */
int status_print(Store *st, int json, FILE *out);

#endif
