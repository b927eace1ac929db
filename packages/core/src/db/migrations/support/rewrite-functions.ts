/** A function's signature, a piece of its definition, and what replaces it. */
export type TFunctionRewrite = [signature: string, before: string, after: string];

/**
 * Re-creates functions with one piece of text replaced (forward) or restored (back). They are written in earlier
 * migrations (some generated per object); editing their stored definitions changes that one piece without a second
 * copy of their bodies. Fails if a definition does not contain the condition exactly once.
 */
export function rewriteFunctions(lookups: TFunctionRewrite[], direction: 'forward' | 'back'): string {
  const literal = (text: string) =>
    `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
  const rows = lookups.map(([signature, before, after]) =>
    direction === 'forward'
      ? `(${literal(signature)}, ${literal(before)}, ${literal(after)})`
      : `(${literal(signature)}, ${literal(after)}, ${literal(before)})`,
  );
  if (direction === 'back') rows.reverse();
  return `do $$
declare
  lookup record;
  definition text;
begin
  for lookup in select * from (values ${rows.join(', ')}) as l(signature, old_text, new_text) loop
    definition := pg_get_functiondef(lookup.signature::regprocedure);
    if array_length(string_to_array(definition, lookup.old_text), 1) <> 2 then
      raise exception 'expected one "%" in %', lookup.old_text, lookup.signature;
    end if;
    execute replace(definition, lookup.old_text, lookup.new_text);
  end loop;
end $$;`;
}
