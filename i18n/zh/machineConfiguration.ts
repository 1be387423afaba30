// Section 'machineConfiguration' of the Chinese catalogue (checked against the English one).
import type { Catalogue } from '../types';
import type { configurationResources as enResources, machineConfiguration as en } from '../en/machineConfiguration';

const itemTypes = { plasticBottle: '塑料瓶', can: '金属罐', glass: '玻璃瓶', plasticCup: '塑料杯', flat: '压扁容器', others: '其他' } as const;

export const machineConfiguration: Catalogue<typeof en> = {
  versions: {
    title: '版本',
    intro: '每次保存都会保留整个配置的一个版本。可比较两个版本，或将一个版本制作成软件包进行下发。',
    open: '版本',
    none: '尚无版本：保存一项后即保留第一个版本。',
    version: '版本',
    items: '项数',
    createdBy: '保存人',
    createTime: '保存时间',
    package: '软件包',
    compareFrom: '比较版本',
    compareTo: '与',
    compare: '比较',
    makePackage: '制作软件包',
    close: '关闭',
    current: '最新',
  },
  diff: {
    title: '版本 %{from} → 版本 %{to}',
    added: '新增',
    removed: '删除',
    changed: '修改',
    unchanged: '%{smart_count} 项未改变 |||| %{smart_count} 项未改变',
    same: '两个版本的内容相同。',
    empty: '（空）',
  },
  package: {
    title: '版本 %{version} 的软件包',
    intro: '该版本将成为类型为 %{type} 的软件包；可在 服务 › 设置 › 下发 中将其下发到机器。',
    name: '软件包名称',
    version: '软件包版本',
    adaptedModels: '适配机型',
    adaptedModelsHint: '以逗号分隔的机型',
    activationTime: '生效时间',
    description: '描述',
    create: '创建软件包',
    created: '软件包“%{name}”已创建。',
    deploy: '去下发',
  },
};

export const configurationResources: Catalogue<typeof enResources> = {
  refund: {
    name: '退款金额',
    fields: { id: 'ID', itemType: '物品类型', barcode: '商品条码', value: '退款', currency: '币种', decimals: '小数位数', updateTime: '更新时间' },
    filters: { itemType: '物品类型', barcodeLike: '商品条码' },
    enums: { itemType: itemTypes },
    validation: { currency: '三个大写字母（ISO 4217），例如 HKD' },
  },
  assortment: {
    name: '商品目录',
    fields: {
      id: 'ID',
      barcode: '条码',
      name: '名称',
      itemType: '物品类型',
      material: '材质',
      volume: '容量（毫升）',
      minWeight: '最小重量（克）',
      maxWeight: '最大重量（克）',
      refund: '退款',
      updateTime: '更新时间',
    },
    filters: { barcodeLike: '条码', nameLike: '名称', itemType: '物品类型', material: '材质' },
    enums: {
      itemType: itemTypes,
      material: { PET: 'PET', HDPE: 'HDPE', PP: 'PP', PS: 'PS', aluminium: '铝', steel: '钢', glass: '玻璃', carton: '纸盒', other: '其他' },
    },
    validation: { barcode: '条码为 3 到 20 位数字', weightRange: '最大重量必须大于最小重量' },
  },
  sorting: {
    name: '分拣规则',
    fields: { id: 'ID', itemType: '物品类型', binNo: '回收箱', updateTime: '更新时间' },
    filters: { itemType: '物品类型' },
    enums: { itemType: itemTypes },
  },
  mainConfig: {
    name: '主配置',
    fields: {
      id: 'ID',
      model: '机型',
      binEmptyHeight: '回收箱空箱高度（厘米）',
      binFullHeight: '回收箱满箱高度（厘米）',
      almostFullPercent: '将满（%）',
      alreadyFullPercent: '已满（%）',
      onTime: '开机时间',
      offTime: '关机时间',
      language: '语言',
      volume: '音量',
      updateTime: '更新时间',
    },
    filters: { modelLike: '机型' },
    enums: { language: { en: '英语', zh: '简体中文', zhHant: '繁体中文' } },
    validation: {
      model: '机型（字母、数字、空格及 . _ -），或 * 表示其他所有机型',
      clock: '时间格式为 HH:mm',
      emptyAboveFull: '回收箱空箱高度必须大于满箱高度',
      almostNotAboveFull: '将满不能超过已满',
      offAfterOn: '结束时间必须晚于开始时间',
    },
  },
};
