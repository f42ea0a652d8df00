import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { pick } from '../../shared/i18n/languages';

interface Props extends Omit<SelectProps<string>, 'options'> {
  clusters: { clusterId: string; centerName: string; centerNameEn: string }[];
}

/** The cluster a page works on, chosen among the user's clusters by their names in the user's language. */
export function ClusterSelect({ clusters, ...props }: Props) {
  const { i18n } = useTranslation();
  return (
    <Select
      {...props}
      options={clusters.map((c) => ({
        value: c.clusterId,
        label: pick(i18n.language, c.centerName, c.centerNameEn),
      }))}
    />
  );
}
