import { useEffect, useMemo, useState } from 'react';
import CodeMirror, { EditorView, Prec, type Extension } from '@uiw/react-codemirror';
import { languages } from '@codemirror/language-data';

interface Props {
  value: string;
  dark: boolean;
  label: string;
  onChange: (value: string) => void;
}

/**
 * What assistive technology needs of the editor (axe): the text area's name on the element that takes the text
 * (the wrapper's aria-label does not reach it), and in reach of the keyboard by itself (its scroller holds no other
 * focusable element); the dark theme's line numbers brighter than its 3.9:1 grey.
 */
const accessible = (label: string, dark: boolean): Extension[] => [
  EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
  // Above the dark theme's own rule for the gutters (same selector: the later style wins).
  ...(dark ? [Prec.highest(EditorView.theme({ '.cm-gutters': { color: '#abb2bf' } }, { dark: true }))] : []),
];

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
  const extensions = useMemo(
    () => [...accessible(label, dark), ...(lang ? [lang] : [])],
    [label, dark, lang],
  );
  return (
    <CodeMirror
      value={value}
      minHeight="420px"
      maxHeight="70vh"
      theme={dark ? 'dark' : 'light'}
      extensions={extensions}
      onChange={onChange}
      aria-label={label}
      data-testid="job-script"
    />
  );
}
