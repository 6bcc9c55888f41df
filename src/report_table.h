/*
 * A sweep's rows, for people and for spreadsheets: the table of the human
 * report (one row per point: its axis values, median / min / max /
 * spread, how the point was prepared, its checks, and throughput when the
 * file declares it), the same rows as CSV (--csv), and throughput itself:
 * GB/s, items/s and the percentage of the device's peak DRAM bandwidth.
 * A plain file (no points) is one row without axis columns in the CSV,
 * and a throughput line in its report.
 *
 * Nothing is owned: every function reads a struct report it borrows.
 */
#ifndef CGR_REPORT_TABLE_H
#define CGR_REPORT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"

/* Throughput over one median; each figure NaN when unknown. */
struct throughput {
	double gb_per_s;                /* bytes / median / 1e9 */
	double items_per_s;             /* items / median */
	double peak_percent;            /* gb_per_s of the device's peak (NaN: no peak known) */
};

/* True when the file declared bytes or items (either is not NaN). */
bool throughput_declared(double bytes, double items);

/* bytes and items (NaN: not declared) moved in median_s seconds, against peak_gb_per_s. */
void throughput_of(double bytes, double items, double median_s, double peak_gb_per_s,
		   struct throughput *t);
/*
 * The JSON "throughput" object of a file or a point, from its declared
 * bytes and items and its samples (null when it declares neither), at
 * depth (its keys one level deeper).
 */
void throughput_json(FILE *out, double bytes, double items, const double *samples, size_t n,
		     double peak_gb_per_s, int depth);

/*
 * "1.23 G": v with an SI prefix (k, M, G, T, P) and three significant
 * digits, for items/s; "-" for NaN.
 */
int format_si(double v, char *buf, size_t len);

/* The table of a sweep (npoints > 0), indented like the report's lines. */
void report_print_table(FILE *out, const struct report *r);

/* A plain file's throughput line, when it declares one (else nothing). */
void report_print_throughput(FILE *out, const struct report *r);

/*
 * --csv: a header line, then one row per point (one for a plain file),
 * full precision (%.9g, as the JSON), an unknown figure as an empty cell,
 * quoted as RFC 4180 says.  path NULL is standard output.  0, or 2 after
 * "cannot write PATH".
 */
int report_write_csv(const char *path, const struct report *r);

#endif
