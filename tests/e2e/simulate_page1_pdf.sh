#!/bin/sh
# The report's decision page (#33: what each option does to waiting) fits the
# first A4 page through both PDF routes of docs/reports.md: `pandoc report.md
# -o report.pdf --pdf-engine=weasyprint` and `weasyprint report.html
# report.pdf`. On the demo at its default size (what a director exports):
# every paragraph and every table cell of the page, from "The decision on one
# page" to the line before section 1, is in the text of the PDF's page 1
# (pdftotext, letters and digits only: line breaks and hyphenation do not
# count), and the page's last paragraph is not on page 2.
. "$(dirname "$0")/lib.sh"
for t in pandoc weasyprint pdfinfo pdftotext; do
    command -v "$t" >/dev/null 2>&1 || fail "$t is missing (tests/deps.sh installs it)"
done

expect_rc 0 cap demo --today 2026-11-25
mkdir -p "$WORK/rep"
expect_rc 0 cap export "$WORK/rep/report.md" "$WORK/rep/report.html"
(cd "$WORK/rep" && pandoc report.md -o md.pdf --pdf-engine=weasyprint) 2>"$WORK/err" \
    || fail "pandoc to PDF: $(cat "$WORK/err")"
(cd "$WORK/rep" && weasyprint report.html html.pdf) 2>"$WORK/err" \
    || fail "weasyprint report.html: $(cat "$WORK/err")"

for pdf in md html; do
    f="$WORK/rep/$pdf.pdf"
    pdfinfo "$f" | grep -q 'Page size: *595.* x 841.* pts (A4)' || fail "$pdf.pdf: not A4 portrait"
    pdftotext -f 1 -l 1 "$f" "$WORK/p1.txt" || fail "pdftotext $pdf.pdf"
    pdftotext -f 2 -l 2 "$f" "$WORK/p2.txt" || fail "pdftotext $pdf.pdf, page 2"
    python3 - "$WORK/rep/report.md" "$WORK/p1.txt" "$WORK/p2.txt" "$pdf" <<'EOF' || fail "$pdf.pdf: the decision page spills past page 1"
import re, sys
md, p1, p2 = (open(f, encoding='utf-8').read() for f in sys.argv[1:4])
route = sys.argv[4]
norm = lambda s: re.sub(r'[^0-9A-Za-z]', '', s)
page = md.split('\n## The decision on one page\n', 1)[1].split('\n## 1. ', 1)[0]
n1, n2 = norm(p1), norm(p2)
assert norm('The decision on one page') in n1, route
pieces, paras, cur = [], [], []
for line in page.split('\n') + ['']:
    if line.startswith('|'):
        cells = [c for c in line.strip('|').split('|') if not re.fullmatch(r'\s*:?-+:?\s*', c)]
        pieces += [c for c in cells if norm(c)]
    elif line.strip():
        cur.append(line)
    elif cur:
        paras.append(' '.join(cur))
        cur = []
# markdown emphasis and links read as their text
paras = [re.sub(r'\[([^]]*)\]\([^)]*\)', r'\1', p) for p in paras]
missing = [p for p in pieces + paras if norm(p) not in n1]
assert not missing, (route, missing[:3])
assert paras and norm(paras[-1]) not in n2, (route, paras[-1])
print('%s: %d paragraphs, %d table cells on page 1' % (route, len(paras), len(pieces)))
EOF
done
echo "PASS: simulate_page1_pdf"
