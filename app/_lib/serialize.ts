/** Dates → ISO strings, the shape client components receive from the JSON API. */
export function toClient<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
