/** The current search as hidden fields, so a GET form changes one thing and keeps the rest. */
export function HiddenInputs({ params, omit = [] }: { params: [string, string][]; omit?: string[] }) {
  return (
    <>
      {params
        .filter(([name]) => !omit.includes(name))
        .map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
    </>
  );
}
