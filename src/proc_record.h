/*
 * One process's figures for one timed thing (a plain file, or a point of
 * a sweep): the unit of sampling of --processes (cugraphrun(1), TIMING).
 * Launches within one process agree far better than processes do, so a
 * process is summed up in a small record of fixed size, whatever its
 * number of launches: its count, median, 10th percentile and
 * interquartile range, the precision its median reached and what stopped
 * it, the SM clock measured before and after its timed launches, and the
 * GPU and driver it ran on.  The report writes one per process
 * ("processes", the last the reporting process's own), and a suite's
 * rounds hand the earlier processes' records to the reporting one through
 * a file of them (proc_records_append, proc_records_read), so that memory
 * does not grow with launches times processes.
 *
 * No CUDA: the back end fills the figures it measures (gpu_timed.h).
 * Ownership: proc_records_read's array is the caller's to free; the rest
 * borrows.
 */
#ifndef CGR_PROC_RECORD_H
#define CGR_PROC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Fixed size and plain data: it is written to a file as it is, and read back by the same binary. */
struct proc_record {
	uint32_t point;                 /* the sweep's point index; 0 for a plain file */
	int32_t pid;
	uint32_t launches;              /* timed launches */
	uint8_t stopped_by;             /* enum stop_reason (stop_rule.h) */
	uint8_t has_uuid;
	uint8_t uuid[16];               /* the GPU's, as cuDeviceGetUuid gives it */
	int32_t driver_version;         /* cuDriverGetVersion: 13000 */
	double median_s, p10_s, iqr_s;  /* NaN without launches */
	double precision;               /* the median's relative 95% half-width; NaN: too few */
	double clock_before_mhz, clock_after_mhz;       /* the SM clock measured; NaN: not */
};

/* The figures of n samples (seconds) into rec: launches, median, p10, IQR, precision. */
void proc_record_figures(struct proc_record *rec, const double *samples, size_t n);

/* The SM clock it ran at: the mean of the readings it has; NaN without any. */
double proc_record_clock(const struct proc_record *rec);

/* "GPU-8d1c...-...": the UUID as nvidia-smi writes it, into buf (at least 41 bytes). */
void proc_record_uuid_text(const struct proc_record *rec, char *buf, size_t len);

/*
 * The "processes" array of the records of one point (n of them, in the
 * order the processes ran), one object a line, at depth (its key already
 * written).
 */
void proc_records_json(FILE *out, const struct proc_record *recs, size_t n, int depth);

/*
 * The text after a report line's label for the records of one point, for
 * people: one process's SM clock and precision ("SM clock 1980 MHz
 * before, 1965 after, median within 0.12% (95%): precise enough"), or
 * several processes' spread
 * ("median 20.1 us (4 processes: 19.8-20.6 us), SM clock 1965-1980 MHz").
 */
void proc_records_print(FILE *out, const struct proc_record *recs, size_t n);

/* "SM clock 1980 MHz", "SM clock 1965-1980 MHz" over the records, or "SM clock not measured". */
void proc_records_print_clock(FILE *out, const struct proc_record *recs, size_t n);

/* "19.8-20.6 us": the range of the processes' medians, a table's cell; "-" without any. */
void proc_records_range(const struct proc_record *recs, size_t n, char *buf, size_t len);

/*
 * The records of point k among a report's all (ordered by point, then
 * process, as proc_records_merge leaves them): *n of them from the
 * returned one (none: *n is 0).
 */
const struct proc_record *proc_records_of(const struct proc_record *all, size_t nall,
					  uint32_t k, size_t *n);

/*
 * Earlier processes' records and this one's, ordered by point and then
 * by process (earlier first): a new array of nprior + nown, the caller's.
 */
struct proc_record *proc_records_merge(const struct proc_record *prior, size_t nprior,
				       const struct proc_record *own, size_t nown, size_t *n);

/* Append n records to the file at path (made when missing).  0, or -1 after a message. */
int proc_records_append(const char *path, const struct proc_record *recs, size_t n);

/*
 * Every record in the file at path, in the order written, malloc'd; a
 * missing file has none.  0, or -1 after a message (it cannot be read,
 * or holds a part of a record).
 */
int proc_records_read(const char *path, struct proc_record **recs, size_t *n);

#endif
