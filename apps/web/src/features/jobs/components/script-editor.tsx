import { useEffect, useState } from 'react';
import CodeMirror, { type Extension } from '@uiw/react-codemirror';
import { languages } from '@codemirror/language-data';

interface Props {
  value: string;
  dark: boolean;
  label: string;
  onChange: (value: string) => void;
}

/**
 * The job script's editor: CodeMirror 6 with shell highlighting, as E-File's editor (issue 22 §3). Reached only
 * through React.lazy, so CodeMirror is not in the first load of the Job page's other tabs.
 */
export default function ScriptEditor({ value, dark, label, onChange }: Props) {
  const [lang, setLang] = useState<Extension | null>(null);
  useEffect(() => {
    let live = true;
    languages
      .find((l) => l.name === 'Shell')
      ?.load()
      .then(
        (l) => live && setLang(l),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, []);
  return (
    <CodeMirror
      value={value}
      minHeight="420px"
      maxHeight="70vh"
      theme={dark ? 'dark' : 'light'}
      extensions={lang ? [lang] : []}
      onChange={onChange}
      aria-label={label}
      data-testid="job-script"
    />
  );
}
