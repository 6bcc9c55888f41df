/*
 * Text from a report made safe for the HTML page (report_html.h): every
 * string a file or a stored report gave (names, paths, ids, labels,
 * diagnostics) goes through here, so that none of it becomes markup or
 * script.  Markup characters become references; control characters
 * become visible escapes ("\x01", as the text report writes them); bytes
 * that are not UTF-8 and the noncharacters U+FFFE and U+FFFF become
 * U+FFFD.  An id keeps only [A-Za-z0-9_-] and writes every other byte as
 * ".XX", so that it is one token in id="" and in href="#".  And the
 * page's one way of writing a time (html_time).  Nothing is owned.
 */
#ifndef CGR_HTML_ESC_H
#define CGR_HTML_ESC_H

#include <stddef.h>
#include <stdio.h>

/* s[0..len) as character data of an element (not <script> or <style>, which hold none). */
void html_textn(FILE *out, const char *s, size_t len);
/* s as character data; NULL writes nothing. */
void html_text(FILE *out, const char *s);
/* s as the value of a double-quoted attribute (line breaks and tabs as references). */
void html_attr(FILE *out, const char *s);
/* prefix and s as one id token ("f-" "a/b.yaml" gives "f-a.2fb.2eyaml"). */
void html_id(FILE *out, const char *prefix, const char *s);

/* A time for people, four digits: "20.14 µs", "1.502 ms", "0"; an en dash for NaN.  buf returned. */
const char *html_time(double seconds, char *buf, size_t len);

#endif
