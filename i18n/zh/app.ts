import type { Catalogue } from '../types';
import type { app as en } from '../en/app';

export const app: Catalogue<typeof en> = {
  title: 'RVM 管理控制台',
  language: {
    label: '语言',
    en: 'English',
    zh: '中文',
  },
  http: {
    withDetail: '%{message}：%{detail}',
    withAttempts: '%{message}，%{attempts}',
  },
  header: {
    expandSidebar: '展开菜单',
    collapseSidebar: '收起菜单',
    greeting: '您好，%{name}',
    userMenu: '用户菜单',
    logout: '退出',
    editPassword: '修改密码',
    licenseAccount: '许可账户：%{name}',
    accountName: '账户：%{name}',
    mainMenu: '主菜单',
  },
  login: {
    title: '登录',
    username: '用户名',
    password: '密码',
    rememberPassword: '记住密码',
    submit: '登录',
    forgotPassword: '忘记密码？',
  },
  forgotPassword: {
    title: '忘记密码',
    intro: '请输入用户名或电子邮箱。如果该账户存在，重置密码的链接将发送到其电子邮箱。',
    account: '用户名或电子邮箱',
    submit: '发送重置链接',
    sent: '如果该账户存在，重置密码的链接已发送。',
    backToLogin: '返回登录',
  },
  resetPassword: {
    title: '重置密码',
    newPassword: '新密码',
    confirmPassword: '确认密码',
    submit: '重置密码',
    success: '密码已重置，请登录。',
    backToLogin: '返回登录',
  },
  passwordRule: '6 到 20 个字符，至少包含 1 个数字、1 个字母和 1 个符号，不能包含中文字符。',
  notFound: {
    title: '404',
    message: '抱歉，您访问的页面不存在。',
    backHome: '返回首页',
  },
  noPermission: {
    title: '401',
    message: '抱歉，您没有权限打开此页面。',
    backHome: '返回首页',
  },
  notAvailable: {
    message: '此页面暂未开放。',
    detail: '它将在后续版本中提供。控制台的其他页面可照常使用。',
  },
  area: {
    intro: '此区域的页面：',
    empty: '此区域没有您可以使用的页面。',
  },
  home: {
    welcome: '欢迎，%{name}',
    intro: '请使用左侧菜单打开页面。',
    account: '当前许可账户：%{name}',
  },
  changePassword: {
    title: '修改密码',
    oldPassword: '旧密码',
    newPassword: '新密码',
    confirmPassword: '确认密码',
    submit: '确定',
    cancel: '取消',
    success: '密码修改成功！',
    firstLogin: '首次登录后需要修改密码',
    passwordExpired: '您的密码已过期，需要修改。',
  },
  switchAccount: {
    title: '切换默认许可账户',
    submit: '确定',
    cancel: '取消',
    success: '成功！',
    failed: '失败',
    empty: '您的用户没有关联任何许可账户。',
  },
  chunkLoad: {
    title: '无法加载此页面',
    script: '分块加载错误：控制台的一部分（%{name}）无法下载。请检查网络连接并重新加载页面。',
    css: 'CSS 分块加载失败：控制台一部分（%{name}）的样式无法下载。请检查网络连接并重新加载页面。',
    reload: '重新加载',
  },
};
