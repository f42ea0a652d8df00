import { useTranslation } from 'react-i18next';
import { EntryCards } from '../components/entry-cards';
import { ItemStrip } from '../components/item-strip';
import '../home.css';

/** /main-page: what the centre offers, and what is new and popular in its catalogues. */
export default function MainPage() {
  const { t } = useTranslation();
  return (
    <div className="hpc-home">
      <section className="hpc-hero">
        <h1>{t('home.hero.title')}</h1>
        <p>{t('home.hero.subtitle')}</p>
      </section>
      <EntryCards />
      <ItemStrip sort="newest" />
      <ItemStrip sort="downloads" />
    </div>
  );
}
