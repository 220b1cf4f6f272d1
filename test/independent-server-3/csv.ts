// CSV encoding (RFC 4180 quoting).
export function csvCell(v: string): string {
  return /[",\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function csvRow(cells: string[]): string {
  return cells.map(csvCell).join(",") + "\r\n";
}
