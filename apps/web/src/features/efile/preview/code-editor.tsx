import { useEffect, useMemo, useState } from 'react';
import CodeMirror, { keymap, type Extension } from '@uiw/react-codemirror';
import { languages } from '@codemirror/language-data';

interface Props {
  fileName: string;
  value: string;
  onChange: (value: string) => void;
  onSave: () => void;
}

/**
 * CodeMirror 6 with the language guessed from the file name (loaded on demand too), light like the page. This module is only reached
 * through React.lazy, so neither CodeMirror nor its languages are in the first load of any page.
 */
export default function CodeEditor({ fileName, value, onChange, onSave }: Props) {
  const [lang, setLang] = useState<Extension | null>(null);
  useEffect(() => {
    let live = true;
    const lower = fileName.toLowerCase();
    const ext = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
    const desc = languages.find((l) => l.filename?.test(fileName) || (ext && l.extensions.includes(ext)));
    desc?.load().then(
      (l) => live && setLang(l),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [fileName]);

  const extensions = useMemo(
    () => [
      keymap.of([
        {
          key: 'Mod-s',
          preventDefault: true,
          run: () => {
            onSave();
            return true;
          },
        },
      ]),
      ...(lang ? [lang] : []),
    ],
    [lang, onSave],
  );

  return (
    <CodeMirror
      value={value}
      height="60vh"
      // Light in both themes: "dark blue" darkens the header only, the dialog it opens in is white (issue 25 §3.11).
      theme="light"
      extensions={extensions}
      onChange={onChange}
      autoFocus
      data-testid="efile-editor"
    />
  );
}
